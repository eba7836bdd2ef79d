// The Conversions API engine: pure (no I/O, clock or environment). See packages/core/README.md.
export * from './fields/catalogue.ts';
export * from './mapping/suggest.ts';
export * from './mapping/rules.ts';
export * from './mapping/full-name.ts';
export { splitFullName, type SplitName } from './normalize/full-name.ts';
export * from './mapping/source-rules.ts';
export * from './settings.ts';
export * from './csv/types.ts';
export { readCsv, createCsvReader, cleanHeaders } from './csv/read-csv.ts';
export { amountNotices, validationNotices, whitespaceNotice, type AmountReadings } from './csv/notices.ts';
export * from './fields/limits.ts';
export * from './normalize/result.ts';
export { normalizeEmail, isValidEmail } from './normalize/email.ts';
export { normalizePhone } from './normalize/phone.ts';
export { normalizeName, normalizeCity, normalizeGender, normalizeExternalId } from './normalize/names.ts';
export { normalizeState, normalizeZip, normalizeCountry } from './normalize/places.ts';
export { normalizeDateOfBirth } from './normalize/dates.ts';
export { sha256 } from './hash/sha256.ts';
export {
  parseEventTime,
  detectDateOrder,
  windowFor,
  SEVEN_DAYS,
  SIXTY_TWO_DAYS,
} from './validate/event-time.ts';
export { isTimeZone } from './validate/zoned-time.ts';
export {
  STANDARD_EVENTS,
  canonicalEventName,
  canonicalActionSource,
  parseAmount,
  canonicalCurrency,
  splitList,
} from './validate/values.ts';
export { identifierProblem } from './validate/identifiers.ts';
export { readAmount, detectDecimalSeparator, type Amount, type DecimalSeparator } from './validate/amount.ts';
export { deriveEventId } from './validate/event-id.ts';
export { createDuplicateTracker, markDuplicate } from './validate/duplicates.ts';
export * from './validate/row-validator.ts';
export * from './validate/drop-reason.ts';
export * from './validate/refunds.ts';
export * from './events/build-event.ts';
export * from './events/event-writer.ts';
export * from './batch/batcher.ts';
export * from './quality/match-quality.ts';
export * from './quality/row-match-quality.ts';
export * from './quality/match-keys.ts';
export * from './quality/fix-groups.ts';
export * from './meta-errors/index.ts';
export { nextRunAt, describeSchedule, type SourceSchedule } from './schedule/next-run.ts';
export { globMatcher, matchesGlob } from './glob/glob.ts';
