-- syncdex schema v5: finished runs are pruned after RUN_RETENTION_DAYS (docs/operator-decisions.md).
--
-- Hourly ticks add a run per entity per hour; without retention sync_runs grows forever and
-- every metrics scrape scans it. A replay keeps its link to the original only while the
-- original exists.
alter table sync_runs drop constraint sync_runs_replay_of_fkey;
alter table sync_runs add constraint sync_runs_replay_of_fkey
  foreign key (replay_of) references sync_runs(id) on delete set null;
-- The duration histogram asks for runs finished since its last scrape.
create index sync_runs_finished_idx on sync_runs (finished_at) where finished_at is not null;
