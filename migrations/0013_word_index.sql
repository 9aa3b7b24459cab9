-- syncdex schema v13: `fuzzy`, `keyword` and exact matches on any string path find their
-- candidates through a word index (src/search/postgres/word-index.ts, docs/decisions.md 17).
--
-- `words` holds a record's path-qualified words (`path:word`, the path being the object keys from
-- the record to the string, array levels skipped), each as a 32-bit hash that folds in the
-- connector and the entity: the GIN over it then holds one posting list per tenant's word, so a
-- search reads its own tenant's postings only, and the column stays a quarter of the words' text
-- (a hash collision only adds candidates, which the exact filter drops). `search_vocab` is the term dictionary of
-- each (connector, entity, path): the words a fuzzy term may expand to. It only ever grows, which
-- keeps it a superset of the words records hold (an expansion nobody holds finds nothing). It has
-- no unique key on purpose: page writers of one entity overlap, and an upsert of a word another
-- uncommitted page also added would wait for that page, which may itself wait for this one (the
-- batch writer commits in order): a deadlock. Writers skip words they already wrote (a bounded
-- cache), readers take distinct words, and `syncdex reindex` drops the duplicates.
-- Both are written only when Postgres answers searches; an OpenSearch deployment pays for neither.
alter table records add column if not exists words int4[];
-- Pending lists of 1 MB, not 4: every search through the index scans the whole list until it is
-- flushed (the statistics keeper flushes it after each ANALYZE and at a run's end).
create index if not exists records_words_gin on records using gin (words) with (gin_pending_list_limit = 1024) where words is not null;
alter index records_text_trgm set (gin_pending_list_limit = 1024);

create table if not exists search_vocab (
  connector_id uuid not null references connectors (id) on delete cascade,
  entity text not null,
  path text collate "C" not null,
  word text collate "C" not null
);
create index if not exists search_vocab_words on search_vocab (connector_id, entity, path, word);

-- Exact quality of a fuzzy term against one word, as the reference scores it (search-decisions
-- 26, 30): exact 1, prefix 0.5, d edits within the AUTO budget 2^-d, else 0. One function, so a
-- fuzzy text binds its terms as ONE array parameter instead of several parameters per term.
create or replace function sx_term_quality(t text, w text) returns float8
  language sql immutable parallel safe
  -- No sub-select, and the distance computed once (CASE x WHEN): Postgres inlines the function.
  -- Beyond the budget levenshtein_less_equal answers "some value above it"; with budget 1 that
  -- can be 2, which the second WHEN therefore checks against the term's length.
  return case
    when w = t then 1.0::float8
    when left(w, length(t)) = t then 0.5::float8
    when length(t) < 3 or length(t) > 255 or length(w) > 255
      or abs(length(w) - length(t)) > (case when length(t) <= 5 then 1 else 2 end) then 0::float8
    else case levenshtein_less_equal(t, w, case when length(t) <= 5 then 1 else 2 end)
           when 1 then 0.5::float8
           when 2 then (case when length(t) > 5 then 0.25 else 0 end)::float8
           else 0::float8 end
  end;

-- The score of `fuzzy` and `keyword` on one string's words (0: some fuzzy term matches no word /
-- no keyword term is a word). Loops, not sub-selects: a sub-select per term and string costs an
-- executor start each, several times the work itself on the handful of words of a name.
create or replace function sx_fuzzy_score(words text[], terms text[]) returns float8
  language plpgsql immutable parallel safe as $$
declare
  total float8 := 0;
  best float8;
  q float8;
  t text;
  w text;
begin
  if words is null then return 0; end if;
  foreach t in array terms loop
    best := 0;
    foreach w in array words loop
      q := sx_term_quality(t, w);
      if q > best then
        best := q;
        exit when best = 1;
      end if;
    end loop;
    if best = 0 then return 0; end if;
    total := total + best;
  end loop;
  return total;
end $$;

create or replace function sx_keyword_score(words text[], terms text[]) returns float8
  language plpgsql immutable parallel safe as $$
declare
  n int := 0;
  t text;
begin
  if words is null then return 0; end if;
  foreach t in array terms loop
    if t = any(words) then n := n + 1; end if;
  end loop;
  return n;
end $$;

-- A search text that does not hold the page writer's words would make searches miss records.
-- Records written before this migration have none until `syncdex reindex` recomputes them.
update entity_state set text_complete = false
 where exists (select 1 from records r where r.connector_id = entity_state.connector_id and r.entity = entity_state.entity);

-- The lookup GIN skips rows without keys (an OpenSearch deployment writes none).
drop index if exists records_keys_gin;
create index records_keys_gin on records using gin (keys jsonb_path_ops) with (fastupdate = off) where keys is not null;
