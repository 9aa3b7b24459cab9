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

-- The object of `data`'s given keys (jsonb_build_object is only STABLE, so indexes cannot use it).
create function sx_pick(data jsonb, keys text[]) returns jsonb
  language sql immutable parallel safe
  return (select coalesce(jsonb_object_agg(k, data -> k), '{}'::jsonb) from unnest(keys) as k where data ? k);

-- Exact matches use per-entity GIN indexes over each entity's lookup fields (created with the
-- entity's sort indexes, src/search/postgres/lookup-index.ts); the whole-document GIN cost more
-- than the rest of a page write together.
drop index if exists records_data_gin;
