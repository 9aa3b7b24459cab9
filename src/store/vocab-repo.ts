/**
 * The vocabulary of the word index (migration 0013): which words occur at which path of an
 * entity's records, so a fuzzy term can be expanded to the words within its edit budget.
 */
import { sql } from 'kysely';
import type { Db } from './db.js';
import { hashWords, tenantSeed, type VocabEntry, type WordGroup } from '../search/postgres/word-index.js';

/**
 * Words this process already wrote, per (connector, entity), keyed by their index hash (each
 * entry keeps its path and word: two words sharing a hash are told apart, never skipped). A page
 * skips them, so a sync writes each word about once. Bounded: past the cap it starts over (a
 * word is then written again, which readers' `distinct` absorbs). Filled only after the writing
 * transaction commits, or a rolled-back page would leave words remembered that no row holds.
 */
const written = new Map<string, Map<number, VocabEntry[]>>();
let size = 0;
const CAP = 200_000;

const keyOf = (connectorId: string, entity: string): string => `${connectorId}/${entity}`;

/** A vocabulary entry with the index hash of its token. */
export interface HashedEntry extends VocabEntry {
  readonly hash: number;
}

const holds = (entries: readonly VocabEntry[] | undefined, path: string, word: string): boolean => entries?.some((e) => e.word === word && e.path === path) === true;

/**
 * The `words` column of each record (hashes within the tenant) and the vocabulary entries among
 * them that this process has not written yet (each once).
 */
export function indexWords(connectorId: string, entity: string, records: readonly { readonly words?: readonly WordGroup[] | null }[]): { words: (number[] | null)[]; fresh: HashedEntry[] } {
  const known = written.get(keyOf(connectorId, entity));
  const fresh = new Map<number, HashedEntry[]>();
  const seen = (hash: number, path: string, word: string): void => {
    if (holds(known?.get(hash), path, word)) return;
    const mine = fresh.get(hash);
    if (holds(mine, path, word)) return;
    if (mine === undefined) fresh.set(hash, [{ hash, path, word }]);
    else mine.push({ hash, path, word });
  };
  const seed = tenantSeed(connectorId, entity);
  const words = records.map((r) => (r.words === null || r.words === undefined ? null : hashWords(seed, r.words, seen)));
  return { words, fresh: [...fresh.values()].flat() };
}

/** After the transaction that wrote `entries` committed: later pages skip them. */
export function rememberWords(connectorId: string, entity: string, entries: readonly HashedEntry[]): void {
  if (entries.length === 0) return;
  if (size + entries.length > CAP) {
    written.clear();
    size = 0;
  }
  const key = keyOf(connectorId, entity);
  let map = written.get(key);
  if (map === undefined) written.set(key, (map = new Map()));
  for (const e of entries) {
    const list = map.get(e.hash);
    if (holds(list, e.path, e.word)) continue;
    if (list === undefined) map.set(e.hash, [e]);
    else list.push(e);
    size++;
  }
}

/** Adds words to an entity's vocabulary, as one array-bound statement. */
export async function insertWords(db: Db, connectorId: string, entity: string, entries: readonly VocabEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await sql`
    insert into search_vocab (connector_id, entity, path, word)
    select ${connectorId}::uuid, ${entity}, p, w from unnest(${entries.map((e) => e.path)}::text[], ${entries.map((e) => e.word)}::text[]) as v(p, w)`.execute(db);
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
 * budget that `levenshtein_less_equal` puts within it. Returns, per probe index, its words.
 */
export async function probeVocabulary(db: Db, connectorId: string, entity: string, probes: readonly VocabProbe[]): Promise<string[][]> {
  if (probes.length === 0) return [];
  const { rows } = await sql<{ i: string; word: string }>`
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
      ) m`.execute(db);
  const out: string[][] = probes.map(() => []);
  for (const r of rows) out[Number(r.i) - 1]?.push(r.word);
  return out;
}

/** Drops duplicate vocabulary rows of an entity (writers of several processes add some). */
export async function dedupeVocabulary(db: Db, connectorId: string, entity: string): Promise<void> {
  await sql`
    delete from search_vocab v using (
      select ctid, row_number() over (partition by path, word) as n
        from search_vocab where connector_id = ${connectorId}::uuid and entity = ${entity}) d
     where v.ctid = d.ctid and d.n > 1`.execute(db);
}
