import { describe, expect, it } from 'vitest';
import { plainRunMessage, stopMessage } from './run-message.ts';

const graph = (error: object) => JSON.stringify({ error });

describe("a source run's message in plain words", () => {
  it("explains a stopped send with Meta's message and what a source's owner does, never the JSON", () => {
    const m = stopMessage(
      'permission',
      graph({ message: '(#200) Permissions error', type: 'OAuthException', code: 200, fbtrace_id: 'Ab1' }),
    );
    expect(m).toBe(
      'Permission denied. The access token is valid but is not allowed to send events to this pixel. Meta said: "(#200) Permissions error" Generate the token from the pixel itself in Events Manager and save it on Pixel Accounts: the next run sends what Meta did not receive.',
    );
    expect(stopMessage('token', 'not json at all')).toMatch(
      /^Access token expired or invalid\. .* Save a new access token .* resume the source/,
    );
  });

  it('keeps our own words for an internal stop', () => {
    expect(stopMessage('internal', 'The file changed while it was being sent.')).toBe(
      'Backsignal could not finish sending. The file changed while it was being sent. The next run reads the file again; events the pixel already received are skipped.',
    );
  });

  it('leaves plain messages alone and explains a raw Graph answer stored before', () => {
    expect(plainRunMessage(null)).toBeNull();
    expect(plainRunMessage('The file has no rows.')).toBe('The file has no rows.');
    expect(plainRunMessage('{"not":"graph"}')).toBe('{"not":"graph"}');
    const old = plainRunMessage(graph({ message: 'Invalid OAuth access token.', code: 190 }));
    expect(old).toMatch(/^Access token expired or invalid\. /);
    expect(old).toContain('Meta said: "Invalid OAuth access token."');
    expect(old).not.toContain('{');
  });
});
