-- Issue 29: a source's error threshold counts the rows it has not read before. The rows with errors a run let
-- through (below the threshold) are remembered by a hash of their cells, so the next run does not count them as
-- new again; rows without errors are new while the pixel has not received their event (the ledger).
-- bad_rows_known_at: when a run first recorded its rows with errors. Until then (a new source, or one from
-- before this migration) the threshold counts every row of the file, as it did: otherwise the first run after
-- this migration would count every old bad row as new and pause sources that were fine.
alter table sources add column bad_rows_known_at timestamptz;

create table source_bad_rows (
  source_id uuid not null references sources (id) on delete cascade,
  -- sha256 of the row's cells (JSON array), base64url, first 22 characters (128 bits).
  row_hash text not null,
  primary key (source_id, row_hash)
);

-- The dashboard lists manual uploads apart from a source's (not exists on source_runs.upload_id), and deleting an
-- upload sets source_runs.upload_id to null: both look runs up by upload.
create index source_runs_upload_idx on source_runs (upload_id) where upload_id is not null;

-- A run that sent nothing drops its upload (and with it the send run): the run keeps how many of the file's
-- events the pixel already had, which the send run counted.
alter table source_runs add column already_delivered integer;
