-- A batch whose two halves were both refused the way it was (every event too old, a bad test event code) is
-- failed whole: its halves are deleted and it is the failed leaf again. A first half failed whole looks exactly
-- like a first half held until its sibling's outcome (failed, bad rows, its parent's error), but it is final:
-- the mark keeps later passes from splitting it and sending its rows again.
alter table send_batches add column failed_whole boolean not null default false;
