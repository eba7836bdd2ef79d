// The Meta SDK ships no types; the bench uses one function of it.
declare module 'facebook-nodejs-business-sdk' {
  export const ServerSideUtils: { normalizeAndHash(value: string, field: string): string };
}
