/**
 * The vocabulary of the word index (migration 0013): which words occur at which path of an
 * entity's records, so a fuzzy term can be expanded to the words within its edit budget.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from './db.js';
import type { VocabEntry } from '../search/postgres/word-index.js';
import { textCompleteSql } from './entity-state-repo.js';
import { textArrayLiteral } from './text-array-literal.js';

/** The statement adding words to an entity's vocabulary, array-bound (a page upsert runs it as a CTE). */
export function vocabInsert(connectorId: string, entity: string, entries: readonly VocabEntry[]): RawBuilder<unknown> {
  return sql`insert into search_vocab (connector_id, entity, path, word)
      select ${connectorId}::uuid, ${entity}, p, w from unnest(${textArrayLiteral(entries.map((e) => e.path))}::text[], ${textArrayLiteral(entries.map((e) => e.word))}::text[]) as v(p, w)`;
}

/** Adds words to an entity's vocabulary, as one statement. */
export async function insertWords(db: Db, connectorId: string, entity: string, entries: readonly VocabEntry[]): Promise<void> {
  if (entries.length > 0) await vocabInsert(connectorId, entity, entries).execute(db);
}

/** A fuzzy term's candidate words at a path: prefixed by it, or within `edits` of it (levenshtein). */
export interface VocabProbe {
  readonly path: string;
  readonly term: string;
  readonly edits: number;
}

/**
 * The words of the vocabulary each probe may match (a superset: callers score them exactly):
 * words starting with the term (a range of the index), and words of a length within the edit
 * budget that `levenshtein_less_equal` puts within it. Returns, per probe index, its words, and
 * whether the entity's search text is complete, read in the same statement: a search that
 * expands its terms needs both, and learns the second without a round trip of its own.
 */
export async function probeVocabulary(db: Db, connectorId: string, entity: string, probes: readonly VocabProbe[]): Promise<{ words: string[][]; textComplete: boolean }> {
  const { rows } = await sql<{ complete: boolean; i: string | null; word: string | null }>`
    select s.complete, x.i, x.word
      from (select ${textCompleteSql(connectorId, entity)} as complete) s
      left join lateral (
        select q.i, m.word
          from unnest(${probes.map((p) => p.path)}::text[], ${probes.map((p) => p.term)}::text[], ${probes.map((p) => p.edits)}::int[]) with ordinality as q(path, term, k, i)
          cross join lateral (
            select distinct v.word from search_vocab v
             where v.connector_id = ${connectorId}::uuid and v.entity = ${entity} and v.path = q.path collate "C"
               and v.word >= q.term collate "C" and v.word < (q.term || chr(1114111)) collate "C"
            union
            select distinct v.word from search_vocab v
             where q.k > 0 and v.connector_id = ${connectorId}::uuid and v.entity = ${entity} and v.path = q.path collate "C"
               and length(v.word) between length(q.term) - q.k and length(q.term) + q.k and length(v.word) <= 255 and length(q.term) <= 255
               and levenshtein_less_equal(q.term, v.word, q.k) <= q.k
          ) m
      ) x on true`.execute(db);
  const words: string[][] = probes.map(() => []);
  for (const r of rows) if (r.i !== null && r.word !== null) words[Number(r.i) - 1]?.push(r.word);
  return { words, textComplete: rows[0]?.complete ?? true };
}

/** Drops duplicate vocabulary rows of an entity (writers of several processes add some). */
export async function dedupeVocabulary(db: Db, connectorId: string, entity: string): Promise<void> {
  await sql`
    delete from search_vocab v using (
      select ctid, row_number() over (partition by path, word) as n
        from search_vocab where connector_id = ${connectorId}::uuid and entity = ${entity}) d
     where v.ctid = d.ctid and d.n > 1`.execute(db);
}
