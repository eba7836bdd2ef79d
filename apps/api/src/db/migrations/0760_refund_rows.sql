-- Purchase rows with a negative value (refunds), docs/decisions/0098.
-- refund_rows: such rows among the rows to send, counted by the last validation or prepare.
-- refund_choice: the user's 'skip' or 'send', in force only for the content, mapping and settings of
-- refund_fingerprint (as skip_errors_fingerprint, migration 0260): a corrected file or a new mapping asks again.
alter table uploads add column refund_rows integer not null default 0;
alter table uploads add column refund_choice text check (refund_choice in ('skip', 'send'));
alter table uploads add column refund_fingerprint text;
