import { batchesRepo } from './delivery-batches.repo.ts';
import { ledgerRepo } from './delivery-ledger.repo.ts';
import { runsRepo } from './delivery-runs.repo.ts';

export * from './delivery-batches.repo.ts';
export * from './delivery-ledger.repo.ts';
export * from './delivery-runs.repo.ts';

/**
 * Delivery's data in one object for the engine and services, stored in three repositories by what they hold:
 * runs (delivery-runs.repo.ts), batches (delivery-batches.repo.ts) and the ledger (delivery-ledger.repo.ts).
 */
export const deliveryRepo = { ...runsRepo, ...batchesRepo, ...ledgerRepo };
