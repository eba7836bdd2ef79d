export * from './classify.ts';
export * from './explain.ts';
