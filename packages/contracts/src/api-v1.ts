import { z } from 'zod';
import { ApiKeyScope } from './api-keys.ts';

// The public API's own payloads (issue 32). Resources reuse the session API's schemas where they are the same.

/** GET /api/v1/workspace: the workspace a key acts in, and the key itself (what `backsignal login` checks). */
export const V1Whoami = z.object({
  workspace: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
  key: z.object({ id: z.string(), name: z.string(), scope: ApiKeyScope }),
});
export type V1Whoami = z.infer<typeof V1Whoami>;
