/** Builds apps/api/dist/{server,worker}.mjs and answers their paths. */
export function bundleServer(): Promise<{ server: string; worker: string }>;
