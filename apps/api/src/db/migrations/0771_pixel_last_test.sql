-- The outcome of an account's last "Test connection": the send step does not preselect an account whose last
-- test (or send) failed (docs/decisions/0099). Null = never tested.
alter table pixel_accounts add column last_test_ok boolean;
alter table pixel_accounts add column last_test_at timestamptz;
