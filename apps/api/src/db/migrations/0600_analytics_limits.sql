-- Issue 21: anonymous analytics are limited per client address in the database (shared by every API
-- instance), and kept at most ANALYTICS_RETENTION_DAYS. The address is stored as an HMAC, never in clear.
create table analytics_limits (
  address_hash text not null,
  window_start timestamptz not null,
  events int not null,
  primary key (address_hash, window_start)
);
create index analytics_limits_window_idx on analytics_limits (window_start);
create index analytics_events_received_idx on analytics_events (received_at);
