-- syncdex schema v12: `like` and `keyword` find their candidates through a trigram index instead
-- of scanning the entity (src/search/postgres/text-index.ts).
--
-- `text_lc` holds a record's searchable strings, lower-cased as the reference lower-cases them,
-- one per line; the page writer fills it when Postgres answers searches and leaves it null when
-- OpenSearch does (such a deployment pays nothing for it). The GIN keys the connector too
-- (btree_gin), so a small tenant's lookup intersects its own rows, not the whole table's.
-- Both extensions are trusted: the database owner may create them.
create extension if not exists pg_trgm;
create extension if not exists btree_gin;
alter table records add column if not exists text_lc text;
create index if not exists records_text_trgm on records using gin (connector_id, text_lc gin_trgm_ops) where text_lc is not null;
-- Whether every live record of the entity has its text: searches use the index only then.
-- Records written before this migration have none until `syncdex reindex` recomputes it.
alter table entity_state add column if not exists text_complete boolean not null default true;
update entity_state set text_complete = false
 where exists (select 1 from records r where r.connector_id = entity_state.connector_id and r.entity = entity_state.entity);
