import type { AmountReadings } from '../csv/notices.ts';
import { FIELD_BY_KEY, type FieldDef } from '../fields/catalogue.ts';
import { lengthLimit, tooLongMessage } from '../fields/limits.ts';
import { integerText } from '../json/json-number.ts';
import { FULL_NAME, FULL_NAME_FIELD } from '../mapping/full-name.ts';
import type { HardcodedValues, Mappings } from '../mapping/suggest.ts';
import { splitFullName } from '../normalize/full-name.ts';
import { normalizeDateOfBirth, type CalendarDate } from '../normalize/dates.ts';
import { normalizeEmail } from '../normalize/email.ts';
import { normalizeCity, normalizeExternalId, normalizeGender, normalizeName } from '../normalize/names.ts';
import { normalizePhone } from '../normalize/phone.ts';
import { normalizeCountry, normalizeState, normalizeZip } from '../normalize/places.ts';
import { isPlaceholder } from '../normalize/placeholder.ts';
import { alreadyHashed, trimmed, type Normalized } from '../normalize/result.ts';
import type { FileSettings } from '../settings.ts';
import { canonicalDigits, plainDigits, readAmount, usualAmount, type DecimalSeparator } from './amount.ts';
import { parseContents } from './contents.ts';
import { dropReason, dropSentence, type DropReason } from './drop-reason.ts';
import { createEventIdDeriver } from './event-id.ts';
import { parseExtinfo } from './extinfo.ts';
import {
  FUTURE_TOLERANCE,
  parseTrimmedEventTime,
  sendableSeconds,
  windowFor,
  type DateOrder,
} from './event-time.ts';
import { identifierProblem } from './identifiers.ts';
import { withoutTextMarker } from './text-marker.ts';
import { isoSeconds as iso } from './iso-seconds.ts';
import { ValueMemo } from './value-memo.ts';
import { zonedDate } from './zoned-time.ts';
import {
  canonicalActionSource,
  canonicalCurrency,
  canonicalEventName,
  FBC,
  FBP,
  isIpAddress,
  LEAD_ID,
  META_ACTION_SOURCES,
  parseBoolean,
  parseInteger,
  splitList,
} from './values.ts';

export interface RowIssue {
  field: string;
  message: string;
}
export interface RowCorrection extends RowIssue {
  original: string;
  corrected: string;
}
/** A value that cannot be used: the event is sent without it (not a correction, not an error). */
export interface RowDrop extends RowIssue {
  reason: DropReason;
  original: string;
}
export interface RowResult {
  rowNumber: number;
  errors: RowIssue[];
  corrections: RowCorrection[];
  /** Customer values left out of the event, each with its reason code. */
  drops: RowDrop[];
  warnings: RowIssue[];
  /** Field key → normalised (not hashed) value after corrections: what is sent, and what the UI shows. */
  effectiveRow: Record<string, string>;
}

export interface ValidationContext {
  headers: readonly string[];
  mappings: Mappings;
  hardcoded: HardcodedValues;
  settings: FileSettings;
  /** Unix seconds: every time window is judged against it. */
  now: number;
  /**
   * Column → the day/month order its own values decided (detectDateOrder at upload). Each date column follows
   * its own evidence, else `settings.dateOrder`: an event_time column written D/M says nothing about how the
   * date-of-birth column was typed.
   */
  dateOrders?: Readonly<Partial<Record<string, DateOrder>>>;
  /**
   * Column → the decimal separator its values agree on (detectDecimalSeparator at upload). Settles "1,234" and
   * "1.234"; without it they are read with a thousands separator and the correction says so.
   */
  decimalSeparators?: Readonly<Partial<Record<string, DecimalSeparator>>>;
}

/** What validation counts across a file for its notices (the whitespace trimmed around mapped cells). */
export interface ValidationStats {
  trimmedCells: number;
  /** Amounts read by a convention the file notices tell (a decimal comma, "." between thousands). */
  amounts?: AmountReadings;
}

/** The whole-file error when mapped columns are missing from the file's headers (spec §8 panel). */
export function headerProblem(ctx: { headers: readonly string[]; mappings: Mappings }): string | null {
  const present = new Set(ctx.headers);
  const missing = Object.keys(ctx.mappings).filter((c) => ctx.mappings[c] && !present.has(c));
  return missing.length
    ? "Your file headers don't match your mappings. Please reupload a CSV file with the correct headers or return to the mappings page to fix the mappings."
    : null;
}

type Out = Omit<RowResult, 'rowNumber'>;
interface Source {
  def: FieldDef;
  column: number; // -1 for a hardcoded value
  hardcoded: string;
  dateOrder: DateOrder;
  decimal: DecimalSeparator | undefined;
  /** Value → result, for fields whose values repeat (REPEATING, event_name, currency); per file, bounded. */
  memo: ValueMemo<Normalized> | null;
  textMemo: ValueMemo<{ value: string; note?: string } | null> | null;
  /** The field's normalisation, for hashed customer keys. */
  rule: Rule | undefined;
  /** Stores the normalised value of a hashed customer key in the effective row (see HASHED). */
  store: Store | undefined;
  /** Longer values flag the row (fields/limits.ts): never cut, never hashed. */
  limit: number;
}

const TEXT_MEMO = new Set(['event_name', 'action_source', 'currency']);

/** Every Source is built here, with the same fields in the same order: read per cell, they share one shape. */
function source(
  def: FieldDef,
  column: number,
  hardcoded: string,
  dateOrder: DateOrder,
  decimal: DecimalSeparator | undefined,
): Source {
  const field = def.key;
  return {
    def,
    column,
    hardcoded,
    dateOrder,
    decimal,
    memo: REPEATING.has(field) ? new ValueMemo<Normalized>() : null,
    textMemo: TEXT_MEMO.has(field) ? new ValueMemo<{ value: string; note?: string } | null>() : null,
    rule: HASHED[field]?.rule,
    store: HASHED[field]?.store,
    limit: lengthLimit(def),
  };
}

type Rule = (
  v: string,
  s: FileSettings,
  today: CalendarDate,
  order: DateOrder,
  rowCountry: string | undefined,
) => Normalized;
type Store = (eff: Record<string, string>, value: string) => void;
/**
 * Each hashed customer key: its normalisation, and the store of its value in the effective row. Each key is
 * stored by its own function, at its own store site: one `eff[key] = value` for all of them sees every key on a
 * different shape of the row, and V8 makes such a store megamorphic (a generic lookup of the key and its
 * transition, ~200 instructions per cell, against a few for a named store that always sees the same shape). A
 * store function made per Source would not do: closures made at one place share their feedback.
 */
const HASHED: Record<string, { rule: Rule; store: Store }> = {
  email: { rule: (v) => normalizeEmail(v), store: (eff, v) => void (eff.email = v) },
  // The row's own country (read before the phone: see the sort in createRowValidator) comes first.
  phone: {
    rule: (v, s, _t, _o, rowCountry) => normalizePhone(v, s.defaultCountry, rowCountry),
    store: (eff, v) => void (eff.phone = v),
  },
  first_name: { rule: (v) => normalizeName(v), store: (eff, v) => void (eff.first_name = v) },
  last_name: { rule: (v) => normalizeName(v), store: (eff, v) => void (eff.last_name = v) },
  db: {
    rule: (v, _s, today, order) => normalizeDateOfBirth(v, order, today),
    store: (eff, v) => void (eff.db = v),
  },
  gender: { rule: (v) => normalizeGender(v), store: (eff, v) => void (eff.gender = v) },
  city: { rule: (v) => normalizeCity(v), store: (eff, v) => void (eff.city = v) },
  state: { rule: (v) => normalizeState(v), store: (eff, v) => void (eff.state = v) },
  zip: { rule: (v) => normalizeZip(v), store: (eff, v) => void (eff.zip = v) },
  country: { rule: (v) => normalizeCountry(v), store: (eff, v) => void (eff.country = v) },
  external_id: { rule: (v) => normalizeExternalId(v), store: (eff, v) => void (eff.external_id = v) },
};

/** An age past `limit`, in days: "12 days", or "more than 7 days" when whole days would say 7 (or fewer). */
function ageInDays(age: number, limit: number): string {
  const days = Math.floor(age / 86_400);
  return days * 86_400 > limit ? `${days} days` : `more than ${limit / 86_400} days`;
}
const hoursLeft = (seconds: number) => {
  const hours = Math.floor(seconds / 3600);
  return hours < 1 ? 'less than an hour' : hours === 1 ? '1 hour' : `${hours} hours`;
};

/**
 * Builds the per-row check for one file: maps cells to fields, normalises and auto-corrects each value, and
 * applies Meta's per-row rules (time windows, required parameters per event and source, identifiers).
 */
export function createRowValidator(
  ctx: ValidationContext,
  stats: ValidationStats = { trimmedCells: 0 },
): (values: readonly string[], rowNumber: number) => RowResult {
  const columnIndex = new Map(ctx.headers.map((h, i) => [h, i]));
  const sources: Source[] = [];
  const mapped = new Set<string>();
  let fullName: number | undefined;
  for (const [column, field] of Object.entries(ctx.mappings)) {
    if (field === FULL_NAME) fullName ??= columnIndex.get(column);
    const def = FIELD_BY_KEY.get(field);
    const idx = columnIndex.get(column);
    if (!def || idx === undefined || mapped.has(field)) continue;
    mapped.add(field);
    const dateOrder = ctx.dateOrders?.[column] ?? ctx.settings.dateOrder;
    sources.push(source(def, idx, '', dateOrder, ctx.decimalSeparators?.[column]));
  }
  for (const [field, value] of Object.entries(ctx.hardcoded)) {
    const def = FIELD_BY_KEY.get(field);
    if (!def || mapped.has(field) || value.trim() === '') continue;
    mapped.add(field);
    sources.push(source(def, -1, value, ctx.settings.dateOrder, undefined));
  }
  // A whole name fills first_name and last_name where their own columns leave them empty: after them.
  if (fullName !== undefined && !(mapped.has('first_name') && mapped.has('last_name')))
    sources.push(source(FULL_NAME_FIELD, fullName, '', ctx.settings.dateOrder, undefined));
  const amounts = (stats.amounts ??= { decimalComma: 0, thousands: 0 });
  // event_time is judged after action_source is known, and a phone after its row's country (decision 0096); the
  // sort is stable, so the whole name stays after first and last name.
  const rank = (s: Source) => (s.def.key === 'country' ? -1 : s.def.key === 'event_time' ? 1 : 0);
  sources.sort((a, b) => rank(a) - rank(b));
  // Dates of birth are judged against today's date where the file was written.
  const today = zonedDate(ctx.settings.timeZone, ctx.now * 1000);
  const { settings, now } = ctx;
  const deriveEventId = createEventIdDeriver();

  return (values, rowNumber) => {
    const row: RowState = {
      errors: [],
      corrections: [],
      drops: [],
      warnings: [],
      effectiveRow: {},
      settings,
      now,
      today,
      eventTimeAsWritten: undefined,
      amounts,
    };
    const eff = row.effectiveRow;
    for (let i = 0; i < sources.length; i++) {
      const src = sources[i]!;
      const raw = src.column >= 0 ? (values[src.column] ?? '') : src.hardcoded;
      let v = trimmed(raw);
      // Trimming is routine, not a correction of the value: it is one file notice with its count.
      if (v.length !== raw.length && src.column >= 0) stats.trimmedCells++;
      if (v.charCodeAt(0) === 39 && src.column >= 0) v = textMarked(row, src, raw, v);
      if (v) checkField(row, src, raw, v);
    }

    if (!eff.event_name || !eff.event_time || !eff.action_source) {
      for (const required of ['event_name', 'event_time', 'action_source'] as const) {
        if (!eff[required] && !hasError(row, required)) addError(row, required, `${required} is missing.`);
      }
    }
    if (eff.event_name === 'Purchase') {
      if (!eff.value && !hasError(row, 'value')) addError(row, 'value', 'Purchase events need a value.');
      if (!eff.currency && !hasError(row, 'currency'))
        addError(row, 'currency', 'Purchase events need a currency.');
    }
    if (eff.action_source === 'website') {
      if (!eff.event_source_url) addError(row, 'event_source_url', 'Website events need event_source_url.');
      if (!eff.client_user_agent)
        addError(row, 'client_user_agent', 'Website events need client_user_agent.');
    }
    if (eff.action_source === 'app') {
      // Meta rejects an app event without them, and with it the whole batch (meta-capi.md §1.11).
      if (!eff.advertiser_tracking_enabled && !hasError(row, 'advertiser_tracking_enabled'))
        addError(row, 'advertiser_tracking_enabled', 'App events need advertiser_tracking_enabled.');
      if (!eff.extinfo && !hasError(row, 'extinfo')) addError(row, 'extinfo', 'App events need extinfo.');
    }
    const idProblem = identifierProblem(eff);
    if (idProblem) addError(row, 'user_data', idProblem);

    if (!eff.event_id) eff.event_id = deriveEventId(eff, row.eventTimeAsWritten ?? '');
    return {
      rowNumber,
      errors: row.errors,
      corrections: row.corrections,
      drops: row.drops,
      warnings: row.warnings,
      effectiveRow: eff,
    };
  };
}

function hasError(row: RowState, field: string): boolean {
  for (const e of row.errors) if (e.field === field) return true;
  return false;
}

function addError(row: RowState, field: string, message: string): void {
  row.errors.push({ field, message });
}
function addCorrection(
  row: RowState,
  field: string,
  message: string,
  original: string,
  corrected: string,
): void {
  row.corrections.push({ field, message, original, corrected });
}
/** Message keeps the old wording ("Dropped email "x": it is not a valid email address."). */
function addDrop(row: RowState, field: string, label: string, raw: string, v: string, reason: string): void {
  const code = dropReason(field, v, reason);
  row.drops.push({
    field,
    reason: code,
    message: `Dropped ${label} "${v}": ${dropSentence(code, reason)}.`,
    original: raw,
  });
}

interface RowState extends Out {
  settings: FileSettings;
  now: number;
  today: CalendarDate;
  /** event_time before a date-only value is moved to "now": the event_id must not depend on the clock. */
  eventTimeAsWritten: string | undefined;
  /** The file's count of amounts read by convention (shared by every row). */
  amounts: AmountReadings;
}

// Columns whose values repeat across rows (a file has few distinct countries, states, cities, first and last
// names, event names, currencies): their normalisation is remembered per file, in one bounded map per field,
// so a repeat costs one lookup and no allocation. Not email or phone (unique per person) nor zip (tens of
// thousands of values, and already a single regex for US ZIPs): a map that never hits only costs time and memory.
const REPEATING = new Set(['first_name', 'last_name', 'city', 'state', 'country', 'gender']);

function normalizeMemo(row: RowState, src: Source, v: string, rule: Rule): Normalized {
  const m = src.memo;
  // Only the phone reads the row's country, and it is not memoised.
  if (!m) return rule(v, row.settings, row.today, src.dateOrder, row.effectiveRow.country);
  return m.get(v) ?? m.set(v, rule(v, row.settings, row.today, src.dateOrder, undefined));
}

function cachedText(src: Source, v: string, fn: (v: string) => { value: string; note?: string } | null) {
  const m = src.textMemo;
  if (!m) return fn(v);
  const hit = m.get(v);
  return hit !== undefined ? hit : m.set(v, fn(v));
}

/** `v` (a cell starting with "'") without a spreadsheet's text apostrophe, said as a correction. */
function textMarked(row: RowState, src: Source, raw: string, v: string): string {
  const value = withoutTextMarker(v);
  if (value === null) return v;
  const read = trimmed(value);
  if (read)
    addCorrection(row, src.def.key, `Spreadsheet apostrophe removed: "${v}" read as "${read}"`, raw, read);
  return read;
}

function checkField(row: RowState, src: Source, raw: string, v: string): void {
  const { def } = src;
  const eff = row.effectiveRow;
  const { settings } = row;
  const key = def.key;
  const { rule, store } = src;
  // A SHA-256 digest is taken as one before the length rule: a hashed phone, zip or gender is longer than
  // any real one (decision 0096).
  const hashed = rule && v.length === 64 ? alreadyHashed(v) : null;
  if (!hashed && v.length > src.limit) return addError(row, key, tooLongMessage(def, v.length, src.limit));
  if (rule && store) {
    const r = hashed ?? normalizeMemo(row, src, v, rule);
    if (!r.ok) return addDrop(row, key, def.label.toLowerCase(), raw, v, r.reason);
    store(eff, r.value);
    if (r.note) addCorrection(row, key, r.note, raw, r.value);
    return;
  }
  switch (key) {
    case 'event_name': {
      const r = cachedText(src, v, canonicalEventName)!;
      eff[key] = r.value;
      if (r.note) addCorrection(row, key, r.note, raw, r.value);
      return;
    }
    case 'action_source': {
      const r = cachedText(src, v, canonicalActionSource);
      if (!r)
        return addError(
          row,
          key,
          `action_source "${v}" is not one of Meta's values: ${META_ACTION_SOURCES.join(', ')}.`,
        );
      eff[key] = r.value;
      if (r.note) addCorrection(row, key, r.note, raw, r.value);
      return;
    }
    case 'event_time':
    case 'original_event_time': {
      const t = parseTrimmedEventTime(v, settings.timeZone, src.dateOrder);
      if (!t.ok) return addError(row, key, `${key} "${v}" ${t.reason}.`);
      const seconds = sendableSeconds(t, row.now);
      const written = integerText(t.seconds);
      const sent = seconds === t.seconds ? written : integerText(seconds);
      if (key === 'event_time') row.eventTimeAsWritten = written;
      eff[key] = sent;
      if (seconds !== t.seconds)
        addCorrection(
          row,
          key,
          `${key} has no time of day and 12:00 is still to come; used the current time (${iso(seconds)})`,
          raw,
          sent,
        );
      else if (t.note) addCorrection(row, key, `${t.note} (${iso(seconds)})`, raw, sent);
      if (key === 'event_time') checkWindow(row, seconds, v);
      return;
    }
    case 'value':
    case 'price':
    case 'net_revenue':
    case 'predicted_ltv': {
      return checkAmount(row, key, raw, v, src.decimal);
    }
    case 'currency': {
      const c = cachedText(src, v, canonicalCurrency);
      if (!c) return addError(row, key, `currency "${v}" is not an ISO 4217 code such as USD or EUR.`);
      eff[key] = c.value;
      if (c.note) addCorrection(row, key, c.note, raw, c.value);
      return;
    }
    case FULL_NAME:
      return checkFullName(row, raw, v);
    case 'client_ip_address':
      if (!isIpAddress(v)) return addDrop(row, key, 'client_ip_address', raw, v, 'is not an IP address');
      eff[key] = v;
      return;
    case 'fbc':
    case 'fbp':
      if (!(key === 'fbc' ? FBC : FBP).test(v))
        return addDrop(row, key, key, raw, v, "is not in Meta's fb.1.<time>.<id> format");
      eff[key] = v;
      return;
    case 'lead_id':
      if (!LEAD_ID.test(v))
        return addError(
          row,
          key,
          `lead_id "${v}" must be Meta's 15–17 digit lead id; Meta rejects the whole batch for an invalid one.`,
        );
      eff[key] = v;
      return;
    case 'event_source_url':
    case 'referrer_url':
      if (!/^https?:\/\/\S+$/i.test(v))
        return addError(row, key, `${key} "${v}" is not a full web address (https://…).`);
      eff[key] = v;
      return;
    case 'contents': {
      const c = parseContents(v);
      if (!c.ok) return addError(row, key, `contents ${c.reason}.`);
      eff[key] = c.value;
      if (c.note) addCorrection(row, key, c.note, raw, c.value);
      return;
    }
    case 'extinfo': {
      const x = parseExtinfo(v);
      if (!x.ok) return addError(row, key, `extinfo ${x.reason}.`);
      eff[key] = x.value;
      return;
    }
    case 'data_processing_options': {
      const opts = splitList(v).map((o) => o.toUpperCase());
      if (opts.some((o) => o !== 'LDU'))
        return addError(row, key, 'data_processing_options must be LDU or empty.');
      eff[key] = opts.join(',');
      return;
    }
  }
  switch (def.type) {
    case 'number':
      return checkAmount(row, key, raw, v, src.decimal);
    case 'integer': {
      const n = parseInteger(v);
      if (n === null) return addError(row, key, `${key} "${v}" is not a whole number.`);
      eff[key] = String(n);
      return;
    }
    case 'boolean': {
      const b = parseBoolean(v);
      if (b === null) return addError(row, key, `${key} "${v}" must be true or false.`);
      eff[key] = String(b);
      return;
    }
    case 'enum': {
      const hit = def.allowedValues?.find((a) => a.toLowerCase() === v.toLowerCase());
      if (!hit) return addError(row, key, `${key} "${v}" must be one of: ${def.allowedValues?.join(', ')}.`);
      eff[key] = hit;
      return;
    }
    case 'list':
      eff[key] = splitList(v).join(',');
      return;
    default:
      eff[key] = v;
  }
}

// An amount written differently but equal ("34.60", "1,200.00", "$602.47") is read, not corrected: only a
// reading that was a choice (a separator that could be either) is reported as a correction.
function checkAmount(
  row: RowState,
  key: string,
  raw: string,
  v: string,
  decimal: DecimalSeparator | undefined,
): void {
  // The usual amounts: '49.5' is its own text, and '$602.47' or '103.90' the digits String() would write once
  // the symbol and zeros are gone; such a text is read as its digits, never ambiguously.
  let text = usualAmount(v);
  if (text === null) {
    const digits = plainDigits(v);
    text = digits === null ? null : canonicalDigits(digits);
  }
  if (text !== null) {
    row.effectiveRow[key] = text;
    return;
  }
  const a = readAmount(v, decimal);
  if (!a)
    return addError(row, key, `${key} "${v}" is not a number (for example 1200, 1,200.00 or 1.200,00).`);
  const n = String(a.value);
  row.effectiveRow[key] = n;
  if (a.reading) countReading(row.amounts, v, a.reading);
  if (a.ambiguous) addCorrection(row, key, `${key} "${v}" read as ${n}: ${a.ambiguous}.`, raw, n);
}

function checkWindow(row: RowState, seconds: number, v: string): void {
  const { effectiveRow: eff, now } = row;
  const source = eff.action_source;
  const limit = windowFor(source);
  const age = now - seconds;
  if (seconds > now + FUTURE_TOLERANCE) {
    addError(
      row,
      'event_time',
      `event_time "${v}" (${iso(seconds)}) is in the future. Check the file's time zone setting.`,
    );
  } else if (age > limit) {
    addError(
      row,
      'event_time',
      `event_time "${v}" is ${ageInDays(age, limit)} old. Meta only accepts events up to ${limit / 86_400} days old${source === 'physical_store' ? '' : ' (62 days for physical_store)'}.`,
    );
  } else if (age > limit - 86_400) {
    row.warnings.push({
      field: 'event_time',
      message: `This event becomes too old for Meta in ${hoursLeft(limit - age)}. Send it today.`,
    });
  }
}

/** Counts an amount read by convention, keeping the file's first example of each (decision 0097). */
function countReading(
  r: AmountReadings,
  written: string,
  reading: NonNullable<ReturnType<typeof readAmount>>['reading'] & object,
): void {
  if (reading.decimalComma) {
    r.decimalComma++;
    r.decimalCommaExample ??= { written, read: reading.asRead };
  }
  if (reading.thousands) {
    r.thousands++;
    r.thousandsExample ??= { written, read: reading.asRead, separator: reading.thousands };
  }
}

/**
 * A whole name (decision 0097): split into first and last name, each normalised like its own column, filling
 * only what the row's first_name and last_name columns left empty. A value that cannot be split is dropped.
 */
function checkFullName(row: RowState, raw: string, v: string): void {
  const eff = row.effectiveRow;
  if (eff.first_name !== undefined && eff.last_name !== undefined) return;
  const drop = (reason: string) => addDrop(row, FULL_NAME, 'full name', raw, v, reason);
  if (v.length === 64 && alreadyHashed(v))
    return drop('is already hashed, so it cannot be split into first and last name');
  if (isPlaceholder(v, 'name')) return drop('is a placeholder, not a name');
  if (!/\p{L}/u.test(v)) return drop('has no letters');
  const parts = splitFullName(v);
  if (!parts) return drop('has no letters');
  const first = normalizeName(parts.first);
  const last = parts.last ? normalizeName(parts.last) : null;
  if (!first.ok && !last?.ok) return drop(first.ok ? 'has no letters' : first.reason);
  if (first.ok && eff.first_name === undefined) eff.first_name = first.value;
  if (last?.ok && eff.last_name === undefined) eff.last_name = last.value;
}
