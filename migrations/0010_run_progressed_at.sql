-- syncdex schema v10: when a run last made progress.
--
-- A run held back by upstream rate limits is parked in the queue until the Retry-After and may
-- be parked again and again; it fails only once it has gone 24 hours without writing a page
-- (src/worker/jobs.ts). `heartbeat_at` cannot say that, since a run waiting out a 429 still
-- heartbeats. Page writes set this; null means no page yet (then `started_at` counts).
alter table sync_runs add column if not exists progressed_at timestamptz;
