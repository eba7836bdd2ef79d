-- Issue 22: the ledger takes a row per sent event (1,000 per batch). Its two foreign keys ran a check query per
-- row: on PGlite ~10–25 ms of a ~40–65 ms batch insert. Account deletion now clears the ledger itself
-- (usersRepo.delete, in the same transaction); run_id is informational and may name a run that retention has
-- since deleted.
alter table delivery_ledger drop constraint if exists delivery_ledger_user_id_fkey;
alter table delivery_ledger drop constraint if exists delivery_ledger_run_id_fkey;
