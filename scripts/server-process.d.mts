/** Node's arguments before the bundle's path. */
export const SERVER_NODE_ARGS: readonly string[];
/** `env` with the server's allocator settings added where `env` does not set them itself. */
export function serverEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
