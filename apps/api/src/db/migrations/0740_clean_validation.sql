-- Issue 22 item 4: what a clean validation counted, so a prepare of the same file, mapping and settings inside
-- the time window (valid_until: the first moment an accepted event would become too old) does not read the file
-- again. Cleared with clean_fingerprint whenever the file or its mapping changes.
alter table uploads add column clean_rows integer;
alter table uploads add column clean_repeats integer;
alter table uploads add column clean_valid_until timestamptz;
