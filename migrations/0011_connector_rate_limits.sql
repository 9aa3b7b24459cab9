-- syncdex schema v11: rate limits per upstream account.
--
-- Every run and partition of one connector calls the third party with the same credentials, so a
-- 429's Retry-After is about all of them. The hold lives here, not in a worker's memory, so runs
-- on other workers wait for it too (src/worker/connector-hold.ts). A row whose `until` has passed
-- holds nothing; the next 429 of that connector overwrites it.
create table if not exists connector_rate_limits (
  connector_id uuid primary key references connectors(id) on delete cascade,
  until timestamptz not null
);
