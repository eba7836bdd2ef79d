import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Config } from '../../config/env.ts';

export interface SealedToken {
  ciphertext: Buffer;
  iv: Buffer;
  tag: Buffer;
  keyVersion: number;
}

/**
 * AES-256-GCM with a fresh 96-bit IV per write; the owner and record id are bound as additional data, so a
 * ciphertext copied onto another workspace's or another record's row does not decrypt.
 */
export function sealToken(keys: Config['tokenKeys'], token: string, aad: string): SealedToken {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv);
  cipher.setAAD(Buffer.from(aad));
  const ciphertext = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return { ciphertext, iv, tag: cipher.getAuthTag(), keyVersion: keys.current.version };
}

export function openToken(keys: Config['tokenKeys'], sealed: SealedToken, aad: string): string {
  const key = keys.all.get(sealed.keyVersion);
  if (!key) throw new Error(`no key for version ${sealed.keyVersion}`);
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv);
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(sealed.tag);
  return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
}

export const tokenAad = (workspaceId: string, accountId: string) => `${workspaceId}:${accountId}`;
