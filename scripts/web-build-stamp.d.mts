type Env = Record<string, string | undefined>;
export function publicOrigin(env?: Env): string;
export function inputsHash(env?: Env, root?: string): string;
export function webBuildStale(env?: Env, root?: string): boolean;
export function writeStamp(env?: Env, root?: string): void;
