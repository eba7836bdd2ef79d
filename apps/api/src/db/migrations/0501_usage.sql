-- What each account did in the last 24 hours (bytes uploaded; rows validated, prepared, sent), for the daily
-- quotas of security.md §2.9. Counted in the database so every API instance sees the same total.
create table usage_events (
  id bigserial primary key,
  user_id uuid not null references users (id) on delete cascade,
  action text not null check (action in ('upload', 'validate', 'prepare', 'send')),
  amount bigint not null check (amount >= 0),
  at timestamptz not null
);
create index usage_events_user_action_at_idx on usage_events (user_id, action, at);
