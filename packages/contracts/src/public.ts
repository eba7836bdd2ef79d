// The zod-free part of contracts for public pages (zod would add ~50 KB to every page).
export * from './forms-data.ts';
export * from './analytics-data.ts';
export * from './audit-score.ts';
export * from './public-pages.ts';
export * from './workspace-roles.ts';
export * from './app-screens.ts';
