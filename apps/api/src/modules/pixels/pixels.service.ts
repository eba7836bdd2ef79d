import { randomUUID } from 'node:crypto';
import type { ConnectionTest, PixelAccount } from '@backsignal/contracts';
import type { Config } from '../../config/env.ts';
import type { Queryable } from '../../db/db.ts';
import { notFound } from '../../errors/app-error.ts';
import { checkPixel } from '../../integrations/meta-graph/check-pixel.ts';
import { pixelsRepo, type PixelRow } from './pixels.repo.ts';
import { openToken, sealToken, tokenAad } from './token-crypto.ts';

const mask = (last4: string) => `••••••••${last4}`;
export const presentAccount = (p: PixelRow): PixelAccount => ({
  id: p.id,
  name: p.name,
  pixelId: p.pixelId,
  accessToken: mask(p.last4),
  status: p.status,
});

async function own(db: Queryable, userId: string, id: string): Promise<PixelRow> {
  const p = await pixelsRepo.find(db, userId, id);
  if (!p) throw notFound('Pixel account not found.');
  return p;
}

export async function createAccount(
  db: Queryable,
  config: Config,
  userId: string,
  input: { name: string; pixelId: string; accessToken: string },
) {
  const id = randomUUID();
  const sealed = sealToken(config.tokenKeys, input.accessToken, tokenAad(userId, id));
  await pixelsRepo.insert(db, {
    id,
    userId,
    name: input.name,
    pixelId: input.pixelId,
    sealed,
    last4: input.accessToken.slice(-4),
  });
  return presentAccount((await pixelsRepo.find(db, userId, id))!);
}

/** Changes label, pixel id or token; a new token (or the current key version) re-seals and clears 'reconnect needed'. */
export async function updateAccount(
  db: Queryable,
  config: Config,
  userId: string,
  id: string,
  input: { name?: string; pixelId?: string; accessToken?: string },
) {
  const p = await own(db, userId, id);
  const token = input.accessToken ?? openToken(config.tokenKeys, p.sealed, tokenAad(userId, id));
  await pixelsRepo.update(db, userId, id, {
    name: input.name ?? p.name,
    pixelId: input.pixelId ?? p.pixelId,
    sealed: sealToken(config.tokenKeys, token, tokenAad(userId, id)),
    last4: token.slice(-4),
    status: input.accessToken || input.pixelId ? 'active' : p.status,
  });
  return presentAccount((await pixelsRepo.find(db, userId, id))!);
}

export async function deleteAccount(db: Queryable, userId: string, id: string) {
  if (!(await pixelsRepo.delete(db, userId, id))) throw notFound('Pixel account not found.');
}

export async function testConnection(
  db: Queryable,
  config: Config,
  fetchFn: typeof fetch,
  userId: string,
  id: string,
): Promise<ConnectionTest> {
  const p = await own(db, userId, id);
  const result = await checkPixel(
    fetchFn,
    config.meta,
    p.pixelId,
    openToken(config.tokenKeys, p.sealed, tokenAad(userId, id)),
  );
  if (result.ok && p.status !== 'active') await pixelsRepo.setStatus(db, id, 'active');
  return result;
}

/** For delivery: the account with its decrypted token, or null when it is not the user's. */
export async function getAccountWithToken(db: Queryable, config: Config, userId: string, accountId: string) {
  const p = await pixelsRepo.find(db, userId, accountId);
  if (!p) return null;
  return {
    id: p.id,
    name: p.name,
    pixelId: p.pixelId,
    status: p.status,
    accessToken: openToken(config.tokenKeys, p.sealed, tokenAad(userId, p.id)),
  };
}

export const markReconnectNeeded = (db: Queryable, accountId: string) =>
  pixelsRepo.setStatus(db, accountId, 'reconnect_needed');
