import type { ApiKeyScope } from '@backsignal/contracts';
import type { Agent } from './agent.ts';

/** Creates a key the way a person does, in Settings → API keys, and answers its secret and id. */
export async function createApiKey(
  agent: Agent,
  scope: ApiKeyScope = 'send',
  opts: { workspace?: string; name?: string } = {},
): Promise<{ secret: string; id: string }> {
  const r = await agent.post(
    '/api/workspace/api-keys',
    { name: opts.name ?? `${scope} key`, scope },
    { headers: opts.workspace ? { 'x-workspace': opts.workspace } : {} },
  );
  if (r.statusCode !== 201) throw new Error(`key not created: ${r.statusCode} ${r.body}`);
  const body = r.json();
  return { secret: body.secret, id: body.key.id };
}

export const bearer = (secret: string, more: Record<string, string> = {}) => ({
  authorization: `Bearer ${secret}`,
  ...more,
});
