-- SFTP and S3 sources (issue 23): a run reads one new file or object. The run keeps which one, so the run list
-- can name it and the item is remembered in source_seen only when the run ends 'sent' or 'nothing_new'.
alter table source_runs add column item_name text;
alter table source_runs add column item_key text;
