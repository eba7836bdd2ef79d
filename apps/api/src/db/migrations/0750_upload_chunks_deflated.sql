-- Issue 22: chunks are written deflated by the API (zlib level 1, on libuv's thread pool) instead of compressed by
-- the database with pglz. In PGlite's WASM, pglz made a 64 KB chunk write cost ~7 ms and a read ~2.5 ms of its one
-- thread; deflated, ~2 ms and ~1 ms, and the chunks take ~30% less space. Storage `external` stops the database
-- from trying to compress them again. Chunks written before this stay as they are (deflated = false).
alter table upload_chunks add column deflated boolean not null default false;
alter table upload_chunks alter column data set storage external;
