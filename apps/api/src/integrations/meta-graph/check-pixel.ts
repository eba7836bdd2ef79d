import type { ConnectionTest } from '@backsignal/contracts';
import { withoutToken } from './without-token.ts';

interface GraphError {
  error?: { code?: number; error_subcode?: number; message?: string; error_user_msg?: string };
}

/**
 * 'Test connection': reads the pixel (dataset) with the token, GET /{pixel-id}?fields=id,name, and explains
 * the outcome in plain words. The token goes in the Authorization header, never in the URL.
 */
export async function checkPixel(
  fetchFn: typeof fetch,
  graph: { graphUrl: string; apiVersion: string },
  pixelId: string,
  token: string,
): Promise<ConnectionTest> {
  let res: Response;
  try {
    res = await fetchFn(
      `${graph.graphUrl}/${graph.apiVersion}/${encodeURIComponent(pixelId)}?fields=id,name`,
      {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      },
    );
  } catch {
    return { ok: false, message: 'Could not reach Meta. Check your internet connection and try again.' };
  }
  const text = withoutToken(await res.text().catch(() => ''), token);
  const body = (safeJson(text) ?? {}) as GraphError & { id?: string; name?: string };
  if (res.ok && body.id)
    return { ok: true, message: `Connected to "${body.name ?? body.id}".`, pixelName: body.name };
  const code = body.error?.code;
  const sub = body.error?.error_subcode;
  if (code === 190 || code === 102) {
    return {
      ok: false,
      message:
        'The access token is invalid or has expired. Generate a new token in Events Manager (Settings → Conversions API) and save it here.',
    };
  }
  if ((code === 100 && (sub === 33 || sub === undefined)) || code === 803 || code === 33) {
    return {
      ok: false,
      message: `Pixel ID ${pixelId} was not found, or this token cannot see it. Check the ID in Events Manager → Data sources.`,
    };
  }
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299)) {
    return {
      ok: false,
      message:
        'This token has no permission to send events for this pixel. Use a token generated from the pixel’s own settings, or ask its owner for access.',
    };
  }
  if (code === 4 || code === 17 || code === 613)
    return { ok: false, message: 'Meta is rate limiting requests right now. Try again in a few minutes.' };
  return {
    ok: false,
    message: `Meta answered with an error: ${body.error?.error_user_msg ?? body.error?.message ?? `HTTP ${res.status}`}`,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
