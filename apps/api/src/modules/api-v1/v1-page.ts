import type { V1ListQuery } from '@backsignal/contracts';
import { badRequest } from '../../errors/app-error.ts';

/** A cursor is opaque to clients: base64url JSON of where the page ended. */
export const encodeCursor = (at: Record<string, string>) =>
  Buffer.from(JSON.stringify(at)).toString('base64url');

export function decodeCursor<K extends string>(
  cursor: string | undefined,
  keys: K[],
): Record<K, string> | null {
  if (cursor === undefined) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (keys.every((k) => typeof v[k] === 'string')) return v as Record<K, string>;
  } catch {
    // answered below
  }
  throw badRequest('This cursor is not one a list answered. Start again without it.', {
    cursor: 'Invalid cursor.',
  });
}

/**
 * A page of a list the workspace holds whole in a few rows (pixel accounts, templates, sources, a source's runs):
 * the cursor names the last item's id, so a page starts right after it.
 */
export function pageOf<T extends { id: string }>(items: T[], q: V1ListQuery) {
  const after = decodeCursor(q.cursor, ['id']);
  const start = after ? items.findIndex((i) => i.id === after.id) + 1 : 0;
  const data = items.slice(start, start + q.limit);
  const more = start + q.limit < items.length;
  return { data, nextCursor: more ? encodeCursor({ id: data[data.length - 1]!.id }) : null };
}
