-- Opt-in to send a file without its rows with errors (docs/decisions/0055). Each choice is tied to the
-- fingerprint of the file and mapping it was made for, so a corrected file or a new mapping needs a new choice
-- without any code having to reset it.
-- skippable_fingerprint: the last validation of this content found rows without errors to send.
-- skip_errors_fingerprint: the user chose to leave the rows with errors out of exactly that content.
-- error_rows: rows with errors at the last validation or prepare (the preview's total leaves them out).
alter table uploads add column skippable_fingerprint text;
alter table uploads add column skip_errors_fingerprint text;
alter table uploads add column error_rows integer not null default 0;
