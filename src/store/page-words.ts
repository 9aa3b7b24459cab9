/**
 * The words a page's records are indexed by, and which of them this process already wrote to the
 * vocabulary (vocab-repo.ts): each record's `words` column (word-index.ts hashes) and the page's
 * vocabulary entries still to write. Pure: no client, no SQL; the memo is this process's.
 */
import { distinctInPlace, pathSeed, scanWords, tenantSeed, type RecordStrings, type VocabEntry, type WordVisitor } from '../search/postgres/word-index.js';
import { WordSet } from './word-memo.js';

/**
 * Words this process already wrote to the vocabulary, per (connector, entity): a page skips them
 * (a sync writes each word about once) and never builds their text. Filled only after the
 * writing transaction commits, or a rolled-back page would leave words remembered that no row
 * holds. Bounded by two generations: once the young one holds {@link GENERATION} words it
 * becomes the old one and the oldest is dropped; a word met in the old one moves to the young
 * one, so the words a sync keeps meeting stay. A dropped word is only written again, which
 * readers' `distinct` (and a reindex's dedupe) absorbs.
 */
type Generation = Map<string, WordSet>;
let young: Generation = new Map();
let old: Generation = new Map();
let youngSize = 0;
const GENERATION = 100_000;
/** Longer words are not remembered (a page still writes each once): the fuzzy probe skips them, and they would swell the sets. */
const MAX_REMEMBERED = 255;

const keyOf = (connectorId: string, entity: string): string => `${connectorId}/${entity}`;

function put(tenant: string, hash: number, pathId: number, text: string, start: number, end: number): void {
  if (end - start > MAX_REMEMBERED) return;
  if (youngSize >= GENERATION) {
    old = young;
    young = new Map();
    youngSize = 0;
  }
  let set = young.get(tenant);
  if (set === undefined) young.set(tenant, (set = new WordSet()));
  if (set.add(hash, pathId, text, start, end)) youngSize++;
}

/** A vocabulary entry with the index hash of its token, and the id its path has in this process's word sets. */
export interface HashedEntry extends VocabEntry {
  readonly hash: number;
  readonly pathId: number;
}

/** A path of a tenant: the hash state its words continue from, and its id in the word sets. */
interface PathState {
  readonly state: number;
  readonly id: number;
}

/**
 * Paths' states per tenant (cheap to recompute: all are dropped once {@link MAX_PATH_STATES} are
 * held, so a worker serving many tenants stays bounded). Path ids are never reused: a path met
 * again after the drop gets a new one, and the words remembered under its old id just stop
 * matching (they are written again).
 */
const MAX_PATH_STATES = 50_000;
const pathStates = new Map<string, Map<string, PathState>>();
let pathStateCount = 0;
let nextPathId = 0;

function forgetPaths(): void {
  pathStates.clear();
  pathStateCount = 0;
  // Ids run out after 2^30 paths: start over with no word remembered under an old one.
  if (nextPathId >= 2 ** 30) {
    young = new Map();
    old = new Map();
    youngSize = 0;
    nextPathId = 0;
  }
}

/** The words met on the page being indexed (indexWords is synchronous: one page at a time). */
const pageSet = new WordSet(4096);

/**
 * The page's distinct words, in the order met, to be looked up in the memo once the page is
 * scanned: hash, path id, and the characters as `text.slice(start, end)`; `pending` lists those
 * (by position) that the memo has not answered yet. Reused page after page.
 */
const met = { hash: new Int32Array(4096), pathId: new Int32Array(4096), start: new Int32Array(4096), end: new Int32Array(4096), pending: new Int32Array(4096), text: [] as string[], path: [] as string[], count: 0 };

/** `a` in an array twice its length. */
function doubled(a: Int32Array): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(a.length * 2);
  grown.set(a);
  return grown;
}

function growMet(): void {
  for (const k of ['hash', 'pathId', 'start', 'end', 'pending'] as const) met[k] = doubled(met[k]);
}

/** Where touched values go, so that no compiler drops the reads. */
let touched = 0;

/**
 * A page's `words` columns: each record's word hashes, distinct and sorted, one record after
 * another in one typed array, which goes to Postgres as the page's one binary int4[] parameter
 * (int4-array-binary.ts). Nothing per record: a list of numbers per record was about a tenth of
 * what the worker allocated per record, and most of what its young collections then copied.
 */
export class PageWordHashes {
  constructor(
    /** Every record's hashes, in record order. */
    readonly hashes: Int32Array,
    /** Per record, where its hashes start in `hashes`; -1: it has no words column (no searchable strings given). */
    private readonly starts: Int32Array,
    private readonly counts: Int32Array,
  ) {}

  /** Where record `i`'s hashes start in {@link hashes}, or -1 when it has no words column. */
  start(i: number): number {
    return this.starts[i] as number;
  }

  /** How many hashes record `i` has. */
  count(i: number): number {
    return this.counts[i] as number;
  }

  /** Record `i`'s `words` column as numbers (the readable form), null when it has none. */
  of(i: number): number[] | null {
    const start = this.start(i);
    return start < 0 ? null : Array.from(this.hashes.subarray(start, start + this.count(i)));
  }
}

/** One page's words: each record's hashes, into one array, and the entries the vocabulary does not hold yet. */
class PageWords implements WordVisitor {
  readonly fresh: HashedEntry[] = [];
  private states: Map<string, PathState>;
  // The page's hashes so far, each record's sorted natively in place.
  private hashes = new Int32Array(8192);
  private count = 0;
  private path = '';
  private pathId = 0;

  constructor(
    private readonly tenant: string,
    private readonly seed: number,
    // Looked up once per page: a generation that turns over meanwhile only makes later lookups miss.
    private readonly youngSet = young.get(tenant),
    private readonly oldSet = old.get(tenant),
  ) {
    pageSet.clear();
    met.count = 0;
    let states = pathStates.get(tenant);
    if (states === undefined) pathStates.set(tenant, (states = new Map()));
    this.states = states;
  }

  /** Appends a record's `words` column (the hashes of its strings' words, distinct and sorted); returns how many. */
  record(strings: RecordStrings): number {
    const start = this.count;
    for (let i = 0; i < strings.texts.length; i++) {
      this.path = strings.paths[i] as string;
      const at = this.stateOf(this.path);
      this.pathId = at.id;
      scanWords(strings.texts[i] as string, at.state, this, strings.words?.[i]);
    }
    this.count = start + distinctInPlace(this.hashes.subarray(start, this.count).sort());
    return this.count - start;
  }

  /** How many hashes are appended. */
  get size(): number {
    return this.count;
  }

  /** Every hash appended, as one array. */
  all(): Int32Array {
    return this.hashes.subarray(0, this.count);
  }

  word(hash: number, text: string, start: number, end: number): void {
    if (this.count === this.hashes.length) this.hashes = doubled(this.hashes);
    this.hashes[this.count++] = hash;
    const id = this.pathId;
    // A word met before on this page is looked up once. A page repeats more than half its words,
    // and the page's set is small enough to stay in cache, where the memo's are not.
    if (!pageSet.add(hash, id, text, start, end)) return;
    const n = met.count++;
    if (n === met.hash.length) growMet();
    met.hash[n] = hash;
    met.pathId[n] = id;
    met.start[n] = start;
    met.end[n] = end;
    met.text[n] = text;
    met.path[n] = this.path;
    met.pending[n] = n;
  }

  /**
   * Looks the page's distinct words up in the memo, all at once after the scan: a memo lookup
   * mostly misses the cache, and one at a time the worker waited for each miss in turn. Touching
   * the words' slots first lets those waits overlap. Words neither generation holds become
   * fresh entries.
   */
  settle(): void {
    const unknown = this.sift(this.oldSet, this.sift(this.youngSet, met.count, false), true);
    for (let p = 0; p < unknown; p++) {
      const i = met.pending[p] as number;
      const start = met.start[i] as number;
      const end = met.end[i] as number;
      const text = met.text[i] as string;
      this.fresh.push({ hash: met.hash[i] as number, pathId: met.pathId[i] as number, path: met.path[i] as string, word: start === 0 && end === text.length ? text : text.slice(start, end) });
    }
    // The page's strings are garbage once it is written: the reused list must not keep them.
    met.text.fill('', 0, met.count);
  }

  /**
   * Of the first `n` pending words, keeps those `set` lacks pending, in order, and returns how
   * many; with `promote`, a word it holds moves to the young generation.
   */
  private sift(set: WordSet | undefined, n: number, promote: boolean): number {
    if (set === undefined) return n;
    const { pending } = met;
    let sum = 0;
    for (let p = 0; p < n; p++) sum = (sum + set.touch(met.hash[pending[p] as number] as number)) | 0;
    touched ^= sum;
    let kept = 0;
    for (let p = 0; p < n; p++) {
      const i = pending[p] as number;
      const hash = met.hash[i] as number;
      const id = met.pathId[i] as number;
      const start = met.start[i] as number;
      const end = met.end[i] as number;
      const text = met.text[i] as string;
      if (!set.has(hash, id, text, start, end)) pending[kept++] = i;
      else if (promote) put(this.tenant, hash, id, text, start, end);
    }
    return kept;
  }

  private stateOf(path: string): PathState {
    let at = this.states.get(path);
    if (at === undefined) {
      at = { state: pathSeed(this.seed, path), id: nextPathId++ };
      if (pathStateCount >= MAX_PATH_STATES) {
        forgetPaths();
        pathStates.set(this.tenant, (this.states = new Map()));
      }
      this.states.set(path, at);
      pathStateCount++;
    }
    return at;
  }
}

/**
 * The `words` column of each record (hashes within the tenant, as hashWords gives them) and the
 * vocabulary entries among them that this process has not written yet (each once).
 */
export function indexWords(connectorId: string, entity: string, records: readonly { readonly strings?: RecordStrings | null }[]): { words: PageWordHashes; fresh: HashedEntry[] } {
  const page = new PageWords(keyOf(connectorId, entity), tenantSeed(connectorId, entity));
  const starts = new Int32Array(records.length);
  const counts = new Int32Array(records.length);
  records.forEach((r, i) => {
    if (r.strings === null || r.strings === undefined) return void (starts[i] = -1);
    starts[i] = page.size;
    counts[i] = page.record(r.strings);
  });
  page.settle();
  return { words: new PageWordHashes(page.all(), starts, counts), fresh: page.fresh };
}

/** After the transaction that wrote `entries` committed: later pages skip them. */
export function rememberWords(connectorId: string, entity: string, entries: readonly HashedEntry[]): void {
  const tenant = keyOf(connectorId, entity);
  for (const e of entries) put(tenant, e.hash, e.pathId, e.word, 0, e.word.length);
}
