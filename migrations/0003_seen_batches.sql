-- syncdex schema v3: a full run's seen-set as one row per page batch (docs/decisions.md, store item 3).
--
-- One row per seen id cost about 20 µs per record on every page of every full run (a heap row,
-- a primary-key entry and a foreign-key check each), a fifth of a page write. An array of ids
-- per batch costs about one. A retried batch adds its ids again: deletion detection takes the
-- set difference, so duplicates are harmless.
create table sync_run_seen_batches (
  run_id      bigint not null references sync_runs(id) on delete cascade,
  record_ids  text[] collate "C" not null
);
create index sync_run_seen_batches_run_idx on sync_run_seen_batches (run_id);

insert into sync_run_seen_batches (run_id, record_ids)
  select run_id, array_agg(record_id) from sync_run_seen group by run_id;
drop table sync_run_seen;
