import { describe, expect, it } from 'vitest';
import { apiClient } from '../src/client.ts';
import { CliError } from '../src/errors.ts';
import { findByName } from '../src/send.ts';

type Call = { url: string; init: RequestInit };
function fakeFetch(answers: Response[]) {
  const calls: Call[] = [];
  const impl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return answers.shift()!;
  }) as unknown as typeof fetch;
  return { impl, calls };
}
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const creds = { apiUrl: 'https://app.example.com', apiKey: 'bsk_test' };

describe('the API client', () => {
  it('sends the key as a bearer token, and an Idempotency-Key on each POST', async () => {
    const f = fakeFetch([json(200, { ok: 1 }), json(202, { ok: 2 }), json(202, { ok: 3 })]);
    const api = apiClient(creds, f.impl);
    await api.get('/api/v1/workspace');
    await api.post('/api/v1/sources/1/run');
    await api.post('/api/v1/sources/1/run');
    const headers = f.calls.map((c) => c.init.headers as Record<string, string>);
    expect(f.calls[0]!.url).toBe('https://app.example.com/api/v1/workspace');
    expect(headers[0]!.authorization).toBe('Bearer bsk_test');
    expect(headers[0]!['idempotency-key']).toBeUndefined();
    expect(headers[1]!['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers[2]!['idempotency-key']).not.toBe(headers[1]!['idempotency-key']);
  });

  it('comes back after a 429 when Retry-After says, with the same Idempotency-Key', async () => {
    const f = fakeFetch([
      json(429, { code: 'RATE_LIMITED', message: 'Too many' }, { 'retry-after': '1' }),
      json(202, {}),
    ]);
    await apiClient(creds, f.impl).post('/api/v1/uploads/u/send', {});
    expect(f.calls).toHaveLength(2);
    const keys = f.calls.map((c) => (c.init.headers as Record<string, string>)['idempotency-key']);
    expect(keys[0]).toBe(keys[1]);
  });

  it("turns the API's error into the message a person reads", async () => {
    const f = fakeFetch([json(404, { code: 'NOT_FOUND', message: 'File not found.', docs: 'x' })]);
    const err = await apiClient(creds, f.impl)
      .get('/api/v1/uploads/x')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect(err).toMatchObject({ message: 'File not found.', code: 'NOT_FOUND', status: 404 });
    const proxy = fakeFetch([new Response('<html>Bad gateway</html>', { status: 502 })]);
    await expect(apiClient(creds, proxy.impl).get('/api/v1/x')).rejects.toThrow('The API answered HTTP 502.');
  });

  it('reads every page of a list', async () => {
    const f = fakeFetch([
      json(200, { data: [{ id: 1 }], nextCursor: 'c/1' }),
      json(200, { data: [{ id: 2 }], nextCursor: null }),
    ]);
    expect(await apiClient(creds, f.impl).all('/api/v1/templates')).toEqual([{ id: 1 }, { id: 2 }]);
    expect(f.calls[1]!.url).toBe('https://app.example.com/api/v1/templates?limit=100&cursor=c%2F1');
  });
});

describe('names', () => {
  const pixels = [
    { id: 'a', name: 'Main', pixelId: '111' },
    { id: 'b', name: 'Second store', pixelId: '222' },
  ];
  it('finds an item by its name whatever the case, a pixel account by its pixel id too', () => {
    expect(findByName(pixels, 'main', 'pixel account').id).toBe('a');
    expect(findByName(pixels, '222', 'pixel account', (p) => p.pixelId).id).toBe('b');
  });
  it('names what there is when nothing matches', () => {
    expect(() => findByName(pixels, 'Other', 'pixel account')).toThrow(
      'No pixel account is named "Other". This workspace has: "Main", "Second store".',
    );
    expect(() => findByName([], 'Any', 'template')).toThrow(/^No template is named "Any"\.$/);
  });
});
