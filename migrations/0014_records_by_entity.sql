-- syncdex schema v14: `records` partitioned by entity (docs/decisions.md 25).
--
-- Every searchable entity's sort indexes lived on the one table, and the planner reads every
-- index of a table on every statement, usable or not: with every catalog entity's (161 indexes)
-- each search paid 1.2-2 ms of planning for other entities' indexes (bench/README, session 22).
-- Each entity now has its own partition, and its sort indexes are built on it without a
-- predicate. A statement naming its entity (every search, page write and run query does) is
-- pruned to that partition before the planner opens any index, and the statistics keeper
-- analyzes only the partitions that changed. The default partition holds entities that have no
-- partition yet: a write never fails for want of one.
--
-- Upgrading copies every record once, inside this migration's transaction (minutes for millions
-- of records); the sort indexes are rebuilt on each entity's partition at its next run or search
-- preparation (entity-indexes.ts).
alter table records rename to records_unpartitioned;
alter table records_unpartitioned rename constraint records_pkey to records_unpartitioned_pkey;
do $$
declare i record;
begin
  -- Their names go to the partitioned table's indexes; the old table goes at the end.
  for i in select c.relname from pg_index x join pg_class c on c.oid = x.indexrelid
            where x.indrelid = 'records_unpartitioned'::regclass and not x.indisprimary loop
    execute format('drop index %I', i.relname);
  end loop;
end $$;

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
  keys           jsonb,
  text_lc        text,
  words          int4[],
  primary key (connector_id, entity, record_id)
) partition by list (entity);
-- Rows are ~1-4 KB: inline and uncompressed (schema v1), on every partition.
create table records_default partition of records default with (toast_tuple_target = 8160);

-- The names an entity's partition may have: `records__<entity>` for a plain identifier (unless it
-- looks like a hashed name), and `records__h<md5>` for any other, or when that name was taken.
create function syncdex_records_partition_names(p_entity text) returns text[]
  language sql immutable parallel safe
  return array[case when p_entity ~ '^[a-z][a-z0-9_]{0,40}$' and p_entity !~ '^h[0-9a-f]{16}$' then 'records__' || p_entity end,
               'records__h' || left(md5(p_entity), 16)];

-- The entity's own partition, or null. Found by name in the catalog: nothing is opened or locked,
-- so a search never waits here on a table another transaction locked.
create function syncdex_find_records_partition(p_entity text) returns text
  language sql stable
  return (select c.relname::text from pg_inherits i join pg_class c on c.oid = i.inhrelid
           where i.inhparent = 'records'::regclass and c.relname::text = any(syncdex_records_partition_names(p_entity)));

-- The partition of an entity's records, created when missing; returns its name. Created apart
-- and then attached: attaching locks the parent only against other DDL, where CREATE TABLE ...
-- PARTITION OF would lock out every reader and writer of every entity until it commits. An
-- entity whose rows the default partition already holds (written before anything prepared it)
-- stays there: moving them would lock its writers out; `records_default` is returned.
create function syncdex_records_partition(p_entity text) returns text
  language plpgsql as $$
declare
  names text[] := syncdex_records_partition_names(p_entity);
  found text := syncdex_find_records_partition(p_entity);
  wanted text;
begin
  if found is not null then return found; end if;
  -- One creator at a time; under the lock, look again.
  perform pg_advisory_xact_lock(hashtextextended('partitions/records', 0));
  found := syncdex_find_records_partition(p_entity);
  if found is not null then return found; end if;
  if exists (select 1 from records_default where entity = p_entity) then return 'records_default'; end if;
  -- A name another relation took (an index named like `records__<entity>_pkey`): the hashed form.
  wanted := coalesce(names[1], names[2]);
  if to_regclass(quote_ident(wanted)) is not null then wanted := names[2]; end if;
  execute format('create table %I (like records including defaults including constraints) with (toast_tuple_target = 8160)', wanted);
  execute format('alter table records attach partition %I for values in (%L)', wanted, p_entity);
  return wanted;
end $$;

select syncdex_records_partition(entity) from (select distinct entity from records_unpartitioned) e;
insert into records (connector_id, entity, record_id, data, shadow, content_hash, version, created_at, updated_at, deleted_at, keys, text_lc, words)
select connector_id, entity, record_id, data, shadow, content_hash, version, created_at, updated_at, deleted_at, keys, text_lc, words
  from records_unpartitioned;
drop table records_unpartitioned;
-- Declared once here, built on every partition with the same options (schema v1, v12, v13);
-- after the copy, so each is built in one pass rather than row by row.
create index records_version_idx on records (connector_id, entity, version);
create index records_keys_gin on records using gin (keys jsonb_path_ops) with (fastupdate = off) where keys is not null;
create index records_text_trgm on records using gin (connector_id, text_lc gin_trgm_ops) with (gin_pending_list_limit = 1024) where text_lc is not null;
create index records_words_gin on records using gin (words) with (gin_pending_list_limit = 1024) where words is not null;
