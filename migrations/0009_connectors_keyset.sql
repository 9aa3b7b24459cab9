-- syncdex schema v9: indexes behind the connector lists' keyset pages.
--
-- Both lists read newest first on (created_at, id), the admin one across every organization,
-- which had no index at all: each dashboard poll sorted the whole table. The tenant list's index
-- gains the id, so a page after a cursor starts at it instead of re-sorting equal times.
set local lock_timeout = '10s';
create index if not exists connectors_created_idx on connectors (created_at desc, id desc);
create index if not exists connectors_org_created_idx on connectors (organization_id, created_at desc, id desc);
drop index if exists connectors_org_idx;
