-- syncdex schema v8: an index behind the replay link, for pruning.
--
-- Deleting a run sets `replay_of` to null in the runs replaying it (migration 0005). Without an
-- index each deleted run made that update scan all of sync_runs, so a schedule tick pruning E
-- runs scanned the table E times. Only replays carry the link: the partial index stays tiny.
-- Building it blocks writes to sync_runs for one scan of the table; give up rather than queue
-- every page write behind a long wait for the lock, and let the deploy retry.
set local lock_timeout = '10s';
create index if not exists sync_runs_replay_of_idx on sync_runs (replay_of) where replay_of is not null;
