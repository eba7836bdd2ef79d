import { clean, ok, unusable, type Normalized } from './result.ts';

// ASCII only, like Meta's validator: local part ≤ 64, total ≤ 254, a dotted domain with a letter TLD.
const LOCAL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9]$/;

export function isValidEmail(v: string): boolean {
  if (v.length > 254) return false;
  const at = v.lastIndexOf('@');
  if (at < 1) return false;
  const local = v.slice(0, at);
  const domain = v.slice(at + 1);
  return local.length <= 64 && LOCAL.test(local) && DOMAIN.test(domain);
}

/**
 * em: trim and lowercase (Meta's rule); safe clean-ups are applied and reported: `mailto:`, `<…>`, wrapping
 * quotes, a trailing dot, several addresses in one cell (the first valid one is kept).
 * @example normalizeEmail(' John_Smith@gmail.com ') // { ok: true, value: 'john_smith@gmail.com' }
 */
export function normalizeEmail(raw: string): Normalized {
  let v = clean(raw).toLowerCase();
  if (!v) return unusable('is empty');
  const fixes: string[] = [];
  if (v.startsWith('mailto:')) {
    v = v.slice(7);
    fixes.push('removed "mailto:"');
  }
  const angle = /<([^>]+)>/.exec(v);
  if (angle) {
    v = angle[1]!.trim();
    fixes.push('took the address out of the name');
  }
  if (/^["'].*["']$/.test(v)) {
    v = v.slice(1, -1).trim();
    fixes.push('removed quotes');
  }
  if (/[\s,;]/.test(v)) {
    const parts = v.split(/[\s,;]+/).filter(Boolean);
    const first = parts.find(isValidEmail);
    if (first && parts.length > 1) {
      v = first;
      fixes.push('kept the first of several addresses');
    } else if (parts.length === 1) {
      // "ann@example.com," or ", ann@example.com": a list separator around a single address.
      v = parts[0]!;
      fixes.push('removed a stray separator');
    }
  }
  if (v.endsWith('.')) {
    v = v.replace(/\.+$/, '');
    fixes.push('removed a trailing dot');
  }
  if (!isValidEmail(v)) return unusable('is not a valid email address');
  return ok(v, fixes.length ? `Email: ${fixes.join(', ')}` : undefined);
}
