-- syncdex schema v1: tenants, connectors, the record store, per-entity state, sync runs,
-- and the bookkeeping of the Postgres search backend. Forward-only.

create extension if not exists pg_trgm;
create extension if not exists fuzzystrmatch;

create table organizations (
  id          uuid primary key default gen_random_uuid(),
  name        text not null unique,
  created_at  timestamptz not null default now()
);

-- Tokens are stored as SHA-256 digests; the plaintext is shown once, at creation.
create table api_tokens (
  id               uuid primary key default gen_random_uuid(),
  organization_id  uuid not null references organizations(id) on delete cascade,
  token_hash       bytea not null unique,
  label            text not null default '',
  is_admin         boolean not null default false,
  created_at       timestamptz not null default now(),
  revoked_at       timestamptz
);

create table connectors (
  id                       uuid primary key default gen_random_uuid(),
  organization_id          uuid not null references organizations(id) on delete cascade,
  external_user_id         text not null,
  connector_type           text not null,
  name                     text not null,
  -- AES-256-GCM envelope (credentials or the server-side OAuth secret id); see src/store/crypto.ts
  secret_ciphertext        bytea not null,
  secret_key_id            text not null,
  auth_method              text not null,
  replication_config       jsonb not null,
  status                   text not null default 'active' check (status in ('active', 'paused')),
  created_at               timestamptz not null default now(),
  updated_at               timestamptz not null default now()
);
create index connectors_org_idx on connectors (organization_id, created_at);

-- One version sequence for every insert, update and tombstone: the indexer ships in its order.
create sequence record_version_seq;

-- Also the Postgres search backend's index: `shadow` holds, for the searchable fields, every
-- string as {l: lower-cased, w: words}, computed in TypeScript exactly like the reference
-- evaluator. record_id sorts by code point (COLLATE "C"), as the search contract orders ids.
create table records (
  connector_id   uuid not null references connectors(id) on delete cascade,
  entity         text not null,
  record_id      text collate "C" not null,
  data           jsonb not null,
  shadow         jsonb,
  content_hash   text not null,
  version        bigint not null,
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now(),
  deleted_at     timestamptz,
  primary key (connector_id, entity, record_id)
);
-- Rows are ~1-4 KB with the shadow: keep them inline and uncompressed instead of paying TOAST
-- compression on every page write (measured: about 3x slower upserts at the default target).
alter table records set (toast_tuple_target = 8160);
create index records_version_idx on records (connector_id, entity, version);
-- Search: eq / in / contains on any field compile to containment (src/search/postgres).
create index records_data_gin on records using gin (data jsonb_path_ops);


create table entity_state (
  connector_id     uuid not null references connectors(id) on delete cascade,
  entity           text not null,
  status           text not null default 'initializing'
                   check (status in ('initializing', 'ready', 'updating', 'error', 'paused')),
  -- Incremental cursor: the highest value of the entity's incremental field seen by a successful run.
  sync_cursor      jsonb,
  record_count     bigint not null default 0,
  last_synced_at   timestamptz,
  next_run_at      timestamptz,
  last_run_id      bigint,
  last_error       text,
  updated_at       timestamptz not null default now(),
  primary key (connector_id, entity)
);

create table sync_runs (
  id             bigserial primary key,
  connector_id   uuid not null references connectors(id) on delete cascade,
  entity         text not null,
  trigger        text not null check (trigger in ('schedule', 'manual', 'replay')),
  mode           text not null check (mode in ('full', 'incremental')),
  status         text not null default 'queued'
                 check (status in ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  replay_of      bigint references sync_runs(id),
  job_id         text,
  attempts       integer not null default 0,
  -- Where a resumed run continues: partition index, page cursor, pages done.
  checkpoint     jsonb,
  pages          integer not null default 0,
  seen           bigint not null default 0,
  inserted       bigint not null default 0,
  updated        bigint not null default 0,
  unchanged      bigint not null default 0,
  deleted        bigint not null default 0,
  error          jsonb,
  queued_at      timestamptz not null default now(),
  started_at     timestamptz,
  finished_at    timestamptz,
  heartbeat_at   timestamptz
);
-- At most one active run per (connector, entity): the database enforces it, not the workers.
create unique index sync_runs_one_active on sync_runs (connector_id, entity)
  where status in ('queued', 'running');
create index sync_runs_list_idx on sync_runs (queued_at desc, id desc);
create index sync_runs_connector_idx on sync_runs (connector_id, entity, id desc);

-- Ids seen by a full run, so deletions are derived only from a complete, successful run,
-- including one resumed after a crash. Rows are dropped when the run ends.
create table sync_run_seen (
  run_id     bigint not null references sync_runs(id) on delete cascade,
  record_id  text not null,
  primary key (run_id, record_id)
);

-- Search indexes that are shipped to (OpenSearch): versioned index names behind an alias per
-- (connector type, entity), and per connector the highest record version each index holds.
create table search_indexes (
  name            text primary key,
  connector_type  text not null,
  entity          text not null,
  created_at      timestamptz not null default now()
);

create table search_aliases (
  connector_type  text not null,
  entity          text not null,
  index_name      text not null references search_indexes(name),
  primary key (connector_type, entity)
);

create table search_watermarks (
  index_name    text not null references search_indexes(name) on delete cascade,
  connector_id  uuid not null references connectors(id) on delete cascade,
  entity        text not null,
  watermark     bigint not null default 0,
  primary key (index_name, connector_id, entity)
);
