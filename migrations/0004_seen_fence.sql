-- syncdex schema v4: deletion detection judges only what a full run could have seen
-- (docs/decisions.md, store item 3).
--
-- seen_fence: the last record version issued when the run first started reading. A full run
-- replayed from its checkpoint hours later inherits the original's seen-set; records that
-- incremental runs stored in between were never in that set and must not be tombstoned, so
-- only records with version <= seen_fence are judged. Runs claimed before this migration have
-- no fence and judge every record, as before.
alter table sync_runs add column seen_fence bigint;

-- seen_dropped_at: when a failed or cancelled full run's seen-set was dropped because a later
-- full run of the same entity succeeded. Replaying such a run starts from the beginning.
alter table sync_runs add column seen_dropped_at timestamptz;
