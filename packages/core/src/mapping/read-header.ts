import Fuse from 'fuse.js';
import {
  headerWords,
  ID_WORDS,
  PHRASES,
  QUALIFIERS,
  TRAILING,
  VETO,
  type IdKind,
} from './header-dictionary.ts';
import { HEADER_ALIASES, SUGGESTION_TARGETS, toleranceOf } from './targets.ts';

/** A header's claim on a field; the lower the rank, the surer the claim. */
export interface Candidate {
  field: string;
  rank: number;
}

/** What the whole header row says about the file (decision 0050). */
export interface HeaderContext {
  /** Orders, payments, deals, jobs: a bare "ID" or "No." is the order's. */
  orders: boolean;
  /** A Meta Lead Ads download: its "id" is the lead id. */
  leadAds: boolean;
  /** A list of people (an email or phone column): a bare "ID" is the person's. */
  people: boolean;
  /** More than one column speaks of campaigns: "Campaign" is a campaign's name, not a customer id. */
  campaigns: boolean;
}

const NO_CONTEXT: HeaderContext = { orders: false, leadAds: false, people: false, campaigns: false };
const LEAD_ADS_COLUMNS = new Set(['form id', 'adset id', 'is organic', 'form name']);
const FUZZY_RANK = 5;

export function readContext(headers: readonly string[]): HeaderContext {
  const found = headers.map((h) => candidate(h, NO_CONTEXT)?.field);
  const joined = headers.map((h) => headerWords(h).join(' '));
  return {
    orders: found.some((f) => f === 'value' || f === 'order_id'),
    leadAds: joined.some((w) => LEAD_ADS_COLUMNS.has(w)),
    people: found.some((f) => f === 'email' || f === 'phone'),
    campaigns: joined.filter((w) => w.split(' ').includes('campaign')).length > 1,
  };
}

/** A bare id read from its qualifiers ("Customer ID", "Order #") or, alone, from the header row. */
function idCandidate(word: string, kind: IdKind | undefined, ctx: HeaderContext): Candidate | null {
  if (kind === 'person') return { field: ctx.leadAds ? 'lead_id' : 'external_id', rank: 0 };
  if (kind === 'order') return { field: 'order_id', rank: 0 };
  if (kind === 'order-weak') return { field: 'order_id', rank: 0 };
  if (kind === null) return null;
  // Alone: "ID" and "Record ID" name the row's thing; "No."/"Num" only an order's number.
  const isId = word === 'id' || word === 'record id';
  if (isId && ctx.leadAds) return { field: 'lead_id', rank: 0.3 };
  if (ctx.orders) return { field: 'order_id', rank: isId ? 0.3 : 1 };
  if (isId && ctx.people) return { field: 'external_id', rank: 0.3 };
  return null;
}

function dictionaryCandidate(words: string[], ctx: HeaderContext): Candidate | null {
  let lo = 0;
  let hi = words.length;
  let penalty = 0;
  let innermost: IdKind | undefined;
  const allowed: (readonly string[])[] = [];
  const fits = (field: string) => allowed.every((a) => a.includes(field));
  for (;;) {
    const phrase = words.slice(lo, hi).join(' ');
    const entry = PHRASES.get(phrase);
    if (entry && fits(entry[0])) {
      if (entry[0] === 'external_id' && phrase === 'campaign' && (ctx.campaigns || ctx.orders)) return null;
      // A bare "Name" is a person's in a list of people; in an order export it is the order's ("#1001").
      if (phrase === 'name' && !allowed.length && (!ctx.people || ctx.orders)) return null;
      // "User Name" is a login, not a person's name.
      if (phrase === 'name' && words[lo - 1] === 'user') return null;
      return { field: entry[0], rank: entry[1] + penalty };
    }
    if (ID_WORDS.has(phrase)) {
      const found = idCandidate(phrase, innermost, ctx);
      return found && { ...found, rank: found.rank + penalty };
    }
    if (hi - lo < 2) return null;
    // Strip one qualifier, from the front ("Billing City") or the back ("Email (Billing)", "Phone - Mobile").
    const front = QUALIFIERS.get(words[lo]!);
    const back = front || !TRAILING.has(words[hi - 1]!) ? undefined : QUALIFIERS.get(words[hi - 1]!);
    const qualifier = front ?? back;
    if (!qualifier) return null;
    if (front) lo++;
    else hi--;
    penalty = Math.max(penalty, qualifier.penalty);
    allowed.push(qualifier.allows);
    innermost = qualifier.id;
  }
}

const PREFERRED_ON_TIE: readonly string[] = ['event_name', 'event_time', 'action_source'];
const fuse = new Fuse([...SUGGESTION_TARGETS], { includeScore: true, threshold: 0.4 });

/** Edits (insert, delete, replace, swap two neighbours) from a to b. */
function typoDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

const letters = (s: string) => s.replace(/[^a-z0-9]/g, '');

/**
 * Spec §3's fuzzy match, for a header the dictionary does not know, kept only when the header is a typo of the
 * field's name ("emial", "frist_name"). Fuse alone finds last_name in "Name" and action_source in "Source" and
 * "Location": guesses the user would have to undo (decision 0050).
 */
function fuzzyField(key: string): string | null {
  const found = fuse.search(key, { limit: 3 });
  const top = found[0]?.score;
  if (top === undefined) return null;
  // 'Event' scores the same against event_id, event_name and event_time: a tie goes to a required field, never to
  // event_id (a column of event names used as ids would make Meta drop every repeat as a duplicate).
  const tied = found.filter((r) => r.score !== undefined && r.score - top < 1e-9).map((r) => r.item);
  const best = tied.find((f) => PREFERRED_ON_TIE.includes(f)) ?? tied[0]!;
  if (top > toleranceOf(best)) return null;
  const typed = letters(key);
  const target = letters(best);
  return typoDistance(typed, target) <= (target.length > 8 ? 2 : 1) ? best : null;
}

/** One header's claim: spec §3's alias table, then the dictionary, then spec §3's fuzzy match. */
export function candidate(header: string, ctx: HeaderContext): Candidate | null {
  const key = header.trim().toLowerCase();
  if (!key) return null;
  const words = headerWords(header);
  // "Contact owner", "Staff ID", "Company Phone": someone else's; no guess at all.
  if (words.some((w) => VETO.has(w))) return null;
  // Own keys only: a header named "constructor" must not find Object's.
  const alias = Object.hasOwn(HEADER_ALIASES, key) ? HEADER_ALIASES[key] : undefined;
  if (alias && !(alias === 'external_id' && key === 'campaign' && (ctx.campaigns || ctx.orders))) {
    return { field: alias, rank: 0 };
  }
  if (alias) return null;
  const known = dictionaryCandidate(words, ctx);
  if (known) return known;
  const fuzzy = fuzzyField(key);
  return fuzzy ? { field: fuzzy, rank: FUZZY_RANK } : null;
}
