/**
 * The vocabulary of the word index (migration 0013): which words occur at which path of an
 * entity's records, so a fuzzy term can be expanded to the words within its edit budget.
 */
import { sql } from 'kysely';
import type { Db } from './db.js';
import { distinctSorted, pathSeed, tenantSeed, wordHash, type VocabEntry, type WordGroup } from '../search/postgres/word-index.js';

/**
 * Words this process already wrote to the vocabulary, with their hash, per (connector, entity)
 * and path: a page skips them (a sync writes each word about once) and reuses their hash.
 * Filled only after the writing transaction commits, or a rolled-back page would leave words
 * remembered that no row holds. Bounded by two generations: once the young one holds
 * {@link GENERATION} words it becomes the old one and the oldest is dropped; a word met in the
 * old one moves to the young one, so the words a sync keeps meeting stay. A dropped word is only
 * written again, which readers' `distinct` (and a reindex's dedupe) absorbs.
 */
type Generation = Map<string, Map<string, Map<string, number>>>;
let young: Generation = new Map();
let old: Generation = new Map();
let youngSize = 0;
const GENERATION = 100_000;

const keyOf = (connectorId: string, entity: string): string => `${connectorId}/${entity}`;

function put(tenant: string, path: string, word: string, hash: number): void {
  if (youngSize >= GENERATION) {
    old = young;
    young = new Map();
    youngSize = 0;
  }
  let paths = young.get(tenant);
  if (paths === undefined) young.set(tenant, (paths = new Map()));
  let words = paths.get(path);
  if (words === undefined) paths.set(path, (words = new Map()));
  if (words.has(word)) return;
  words.set(word, hash);
  youngSize++;
}

/** A vocabulary entry with the index hash of its token. */
export interface HashedEntry extends VocabEntry {
  readonly hash: number;
}

/**
 * The `words` column of each record (hashes within the tenant, as hashWords gives them) and the
 * vocabulary entries among them that this process has not written yet (each once).
 */
export function indexWords(connectorId: string, entity: string, records: readonly { readonly words?: readonly WordGroup[] | null }[]): { words: (number[] | null)[]; fresh: HashedEntry[] } {
  const tenant = keyOf(connectorId, entity);
  const seed = tenantSeed(connectorId, entity);
  // Looked up once per page: a generation that turns over meanwhile only makes later lookups miss.
  const youngPaths = young.get(tenant);
  const oldPaths = old.get(tenant);
  const fresh: HashedEntry[] = [];
  const pending = new Map<string, Set<string>>();
  const hashGroup = (g: WordGroup, out: number[]): void => {
    const known = youngPaths?.get(g.path);
    const aged = oldPaths?.get(g.path);
    let at: number | undefined;
    for (const word of g.words) {
      let hash = known?.get(word);
      if (hash === undefined && aged !== undefined) {
        hash = aged.get(word);
        if (hash !== undefined) put(tenant, g.path, word, hash);
      }
      if (hash === undefined) {
        hash = wordHash((at ??= pathSeed(seed, g.path)), word);
        let mine = pending.get(g.path);
        if (mine === undefined) pending.set(g.path, (mine = new Set()));
        if (!mine.has(word)) {
          mine.add(word);
          fresh.push({ hash, path: g.path, word });
        }
      }
      out.push(hash);
    }
  };
  const words = records.map((r) => {
    if (r.words === null || r.words === undefined) return null;
    const out: number[] = [];
    for (const g of r.words) hashGroup(g, out);
    return distinctSorted(out);
  });
  return { words, fresh };
}

/** After the transaction that wrote `entries` committed: later pages skip them. */
export function rememberWords(connectorId: string, entity: string, entries: readonly HashedEntry[]): void {
  const tenant = keyOf(connectorId, entity);
  for (const e of entries) put(tenant, e.path, e.word, e.hash);
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
