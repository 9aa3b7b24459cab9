-- syncdex schema v2: a leaner search index on the write path (docs/decisions.md, "Lean index").
--
-- Text shadows become sparse: the page writer stores {l, w} only for strings with non-ASCII
-- characters. For ASCII strings lower-casing in the "C" collation and splitting on anything but
-- [a-z0-9] is exactly what String#toLowerCase and textWords do, so these functions compute them.
-- Shadows written by v1 (every string) still read correctly.
create function sx_lower(v jsonb, s jsonb) returns text
  language sql immutable parallel safe
  return case when jsonb_typeof(s) = 'object' then s ->> 'l'
              when jsonb_typeof(v) = 'string' then lower((v #>> '{}') collate "C") end;

create function sx_words(v jsonb, s jsonb) returns text[]
  language sql immutable parallel safe
  return case when jsonb_typeof(s) = 'object' then array(select jsonb_array_elements_text(s -> 'w'))
              when jsonb_typeof(v) = 'string'
              then array_remove(regexp_split_to_array(lower((v #>> '{}') collate "C"), '[^a-z0-9]+'), '') end;

-- Exact matches (eq/in/contains) on each entity's lookup fields (emails, names, foreign ids;
-- src/search/target.ts) use `keys`, the object of just those fields, written with the record.
-- The GIN over whole documents answered every field but cost more than the rest of a page write
-- together. Records written by v1 get their keys from `syncdex reindex`.
alter table records add column keys jsonb;
create index records_keys_gin on records using gin (keys jsonb_path_ops);
drop index if exists records_data_gin;
