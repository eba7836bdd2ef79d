/** The additional data a secret is sealed with: a ciphertext copied onto another endpoint's row does not open. */
export const secretAad = (workspaceId: string, endpointId: string) => `webhook:${workspaceId}:${endpointId}`;
