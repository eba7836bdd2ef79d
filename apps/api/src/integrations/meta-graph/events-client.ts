import { classifyNetworkFailure, classifyResponse, type Outcome } from '@backsignal/core';
import { withoutToken } from './without-token.ts';

/** Identifies Backsignal's traffic in Meta's Dataset Quality API (`agent_name`). */
export const PARTNER_AGENT = 'backsignal';
const DATA_OPEN = Buffer.from('{"data":');

export interface PostEventsInput {
  fetch: typeof fetch;
  graphUrl: string;
  apiVersion: string;
  pixelId: string;
  accessToken: string;
  /** The events' JSON array as UTF-8 (eventsJson): the body is written around these bytes, never re-encoded. */
  data: Uint8Array;
  testEventCode: string | null;
  timeoutMs: number;
  nowMs: () => number;
}

export interface PostEventsResult {
  outcome: Outcome;
  /** Meta's body as received, less any access token (kept for the summary); null on network failure. */
  bodyText: string | null;
}

/**
 * One POST to `/{version}/{pixel}/events`. The token travels in the Authorization header, never in the URL
 * (URLs end up in proxy and server logs). Never throws: every failure is an Outcome.
 */
export async function postEvents(input: PostEventsInput): Promise<PostEventsResult> {
  const url = `${input.graphUrl}/${input.apiVersion}/${encodeURIComponent(input.pixelId)}/events`;
  // The events are already JSON: the body is written around them, as JSON.stringify would write it.
  const tail =
    `,"partner_agent":${JSON.stringify(PARTNER_AGENT)}` +
    (input.testEventCode ? `,"test_event_code":${JSON.stringify(input.testEventCode)}}` : '}');
  const body = Buffer.concat([DATA_OPEN, input.data, Buffer.from(tail)]);
  let res: Response;
  try {
    res = await input.fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${input.accessToken}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body,
      signal: AbortSignal.timeout(input.timeoutMs),
      redirect: 'error',
    });
  } catch (err) {
    return { outcome: classifyNetworkFailure(isTimeout(err) ? 'timeout' : 'network'), bodyText: null };
  }
  let text: string;
  try {
    text = withoutToken(await res.text(), input.accessToken);
  } catch (err) {
    // The connection dropped mid-answer: we cannot know what Meta did, so the batch is retried.
    return { outcome: classifyNetworkFailure(isTimeout(err) ? 'timeout' : 'network'), bodyText: null };
  }
  return {
    outcome: classifyResponse({
      status: res.status,
      body: text,
      retryAfter: res.headers.get('retry-after'),
      nowMs: input.nowMs(),
    }),
    bodyText: text,
  };
}

function isTimeout(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}
