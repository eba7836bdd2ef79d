// The browser-safe part of core for the SPA: nothing here imports node:crypto.
export * from './fields/catalogue.ts';
export * from './mapping/suggest.ts';
export * from './mapping/rules.ts';
export * from './mapping/source-rules.ts';
export * from './settings.ts';
export { describeSchedule, type SourceSchedule } from './schedule/next-run.ts';
export * from './mapping/full-name.ts';
export { splitFullName, type SplitName } from './normalize/full-name.ts';
