/**
 * Which fields of a file are still auto-mapped, kept in this browser. The saved mapping (contracts `Mappings`,
 * column → field) has no room for the flag, so without this every reload turned suggestions into the user's
 * own choices and Clear Suggestions had nothing left to clear (spec §4). Another browser sees no flags.
 */
const key = (fileId: string) => `backsignal:auto-mapped:${fileId}`;

export function readAutoMapped(fileId: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(key(fileId)) ?? '{}');
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  } catch {
    // Storage blocked or the entry unreadable: the mapping loads unflagged, as before.
    return {};
  }
}

export function writeAutoMapped(fileId: string, auto: Record<string, string>): void {
  try {
    if (Object.keys(auto).length) localStorage.setItem(key(fileId), JSON.stringify(auto));
    else localStorage.removeItem(key(fileId));
  } catch {
    // Storage full or blocked: only the badges are lost on reload, never the mapping itself.
  }
}
