import { randomUUID } from 'node:crypto';
import type { ConnectionTest, PixelAccount } from '@backsignal/contracts';
import type { Config } from '../../config/env.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError, notFound } from '../../errors/app-error.ts';
import { checkPixel } from '../../integrations/meta-graph/check-pixel.ts';
import { pixelsRepo, type PixelRow } from './pixels.repo.ts';
import { openToken, sealToken, tokenAad } from './token-crypto.ts';

/** Shown when a stored token no longer decrypts (a lost key, a damaged row): the account needs a new token. */
export const TOKEN_UNREADABLE =
  'This pixel account needs to be reconnected: its saved access token can no longer be read. Paste the token again under Replace token and save.';

/**
 * Opens the account's stored token. A ciphertext that fails to decrypt (its key version was dropped, the row
 * was damaged or copied) is not a server fault: the account is marked "reconnect needed" and the caller gets a
 * clear 409 instead of a 500.
 */
async function readToken(db: Queryable, config: Config, workspaceId: string, p: PixelRow): Promise<string> {
  try {
    return openToken(config.tokenKeys, p.sealed, tokenAad(workspaceId, p.id));
  } catch {
    if (p.status !== 'reconnect_needed') await pixelsRepo.setStatus(db, p.id, 'reconnect_needed');
    throw new AppError('INVALID_STATE', TOKEN_UNREADABLE);
  }
}

const mask = (last4: string) => `••••••••${last4}`;
export const presentAccount = (p: PixelRow): PixelAccount => ({
  id: p.id,
  name: p.name,
  pixelId: p.pixelId,
  accessToken: mask(p.last4),
  status: p.status,
});

async function own(db: Queryable, workspaceId: string, id: string): Promise<PixelRow> {
  const p = await pixelsRepo.find(db, workspaceId, id);
  if (!p) throw notFound('Pixel account not found.');
  return p;
}

export async function createAccount(
  db: Queryable,
  config: Config,
  workspaceId: string,
  input: { name: string; pixelId: string; accessToken: string },
) {
  const id = randomUUID();
  const sealed = sealToken(config.tokenKeys, input.accessToken, tokenAad(workspaceId, id));
  await pixelsRepo.insert(db, {
    id,
    workspaceId,
    name: input.name,
    pixelId: input.pixelId,
    sealed,
    last4: input.accessToken.slice(-4),
  });
  return presentAccount((await pixelsRepo.find(db, workspaceId, id))!);
}

/** Changes label, pixel id or token; a new token (or the current key version) re-seals and clears 'reconnect needed'. */
export async function updateAccount(
  db: Queryable,
  config: Config,
  workspaceId: string,
  id: string,
  input: { name?: string; pixelId?: string; accessToken?: string },
) {
  const p = await own(db, workspaceId, id);
  const token = input.accessToken ?? (await readToken(db, config, workspaceId, p));
  await pixelsRepo.update(db, workspaceId, id, {
    name: input.name ?? p.name,
    pixelId: input.pixelId ?? p.pixelId,
    sealed: sealToken(config.tokenKeys, token, tokenAad(workspaceId, id)),
    last4: token.slice(-4),
    status: input.accessToken || input.pixelId ? 'active' : p.status,
  });
  return presentAccount((await pixelsRepo.find(db, workspaceId, id))!);
}

export async function deleteAccount(db: Queryable, workspaceId: string, id: string) {
  if (!(await pixelsRepo.delete(db, workspaceId, id))) throw notFound('Pixel account not found.');
}

export async function testConnection(
  db: Queryable,
  config: Config,
  fetchFn: typeof fetch,
  workspaceId: string,
  id: string,
): Promise<ConnectionTest> {
  const p = await own(db, workspaceId, id);
  const result = await checkPixel(
    fetchFn,
    config.meta,
    p.pixelId,
    await readToken(db, config, workspaceId, p),
  );
  if (result.ok && p.status !== 'active') await pixelsRepo.setStatus(db, id, 'active');
  await pixelsRepo.recordTest(db, id, result.ok);
  return result;
}

/** For delivery: the account with its decrypted token, or null when it is not the user's. */
export async function getAccountWithToken(
  db: Queryable,
  config: Config,
  workspaceId: string,
  accountId: string,
) {
  const p = await pixelsRepo.find(db, workspaceId, accountId);
  if (!p) return null;
  return {
    id: p.id,
    name: p.name,
    pixelId: p.pixelId,
    status: p.status,
    accessToken: await readToken(db, config, workspaceId, p),
  };
}

export const markReconnectNeeded = (db: Queryable, accountId: string) =>
  pixelsRepo.markTokenRefused(db, accountId);
