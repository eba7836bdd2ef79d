import { describe, expect, it } from 'vitest';
import { encodeEvent, eventsJson, type ServerEvent } from '@backsignal/core';
import { PARTNER_AGENT, postEvents } from './events-client.ts';

const event = (id: string): ServerEvent => ({
  event_name: 'Purchase',
  event_time: 1_795_348_800,
  action_source: 'physical_store',
  event_id: id,
  user_data: { em: ['62a14e44f765419d10fea99367361a727c12365e2520f32218d505ed9aa0f62f'] },
  custom_data: { value: 142.52, currency: 'USD', note: 'quote " and \\ and \u2028' },
});

async function sentBody(testEventCode: string | null) {
  let body = '';
  let auth = '';
  let url = '';
  const fetch = (async (u: string, init: RequestInit) => {
    url = u;
    body = Buffer.from(init.body as Uint8Array).toString();
    auth = (init.headers as Record<string, string>).authorization!;
    return new Response('{"events_received":2,"fbtrace_id":"t"}', { status: 200 });
  }) as typeof globalThis.fetch;
  const res = await postEvents({
    fetch,
    graphUrl: 'https://graph.test',
    apiVersion: 'v24.0',
    pixelId: '123',
    accessToken: 'secret-token',
    data: Buffer.from(eventsJson([encodeEvent(event('a')), encodeEvent(event('b'))])),
    testEventCode,
    timeoutMs: 1000,
    nowMs: () => 0,
  });
  return { res, body, auth, url };
}

describe('postEvents', () => {
  it('sends the events as the same JSON the objects would make, token in the header only', async () => {
    const { res, body, auth, url } = await sentBody(null);
    expect(body).toBe(JSON.stringify({ data: [event('a'), event('b')], partner_agent: PARTNER_AGENT }));
    expect(auth).toBe('Bearer secret-token');
    expect(url).toBe('https://graph.test/v24.0/123/events');
    expect(res.outcome).toMatchObject({ kind: 'ok', eventsReceived: 2 });
  });

  it('adds the test event code when the run has one', async () => {
    const { body } = await sentBody('TEST"1');
    expect(body).toBe(
      JSON.stringify({
        data: [event('a'), event('b')],
        partner_agent: PARTNER_AGENT,
        test_event_code: 'TEST"1',
      }),
    );
  });

  it('keeps no access token from the answer: Meta quotes a malformed one in its message', async () => {
    const token = 'EAABmalformed0123456789abcdef';
    const answer = {
      error: { message: `Malformed access token ${token}`, type: 'OAuthException', code: 190 },
      other: 'EAAZanotherTokenLikeText0123456789',
    };
    const res = await postEvents({
      fetch: (async () => new Response(JSON.stringify(answer), { status: 400 })) as typeof fetch,
      graphUrl: 'https://graph.test',
      apiVersion: 'v24.0',
      pixelId: '123',
      accessToken: token,
      data: Buffer.from(eventsJson([encodeEvent(event('a'))])),
      testEventCode: null,
      timeoutMs: 1000,
      nowMs: () => 0,
    });
    const kept = JSON.stringify(res);
    expect(kept).not.toContain(token);
    expect(kept).not.toContain('EAAZanother');
    expect(res.bodyText).toContain('Malformed access token [access token removed]');
    expect(res.outcome).toMatchObject({ kind: 'error', error: { code: 190 } });
  });
});
