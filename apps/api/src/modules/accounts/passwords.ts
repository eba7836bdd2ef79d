import { hash, verify } from '@node-rs/argon2';
import { COMMON_PASSWORDS } from './common-passwords.ts';

/** OWASP / ASVS L2 argon2id minimum: 19 MiB, 2 iterations, 1 lane. */
const PARAMS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, PARAMS);

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

// Verified against for unknown emails, so a login takes as long whether or not the account exists.
let dummy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword('not-a-real-account-password');
  await verifyPassword(await dummy, password);
}

export const isCommonPassword = (password: string) => COMMON_PASSWORDS.has(password.toLowerCase());
