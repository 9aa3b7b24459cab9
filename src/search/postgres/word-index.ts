/**
 * The word index of the Postgres backend (migration 0013). Each record carries `words`: every
 * word of its searchable strings, qualified by the string's path (`address.city:paris`; object
 * keys from the record down, array levels skipped), under a GIN keyed by the connector; and each
 * (connector, entity, path) has a vocabulary (`search_vocab`) from which a fuzzy term is expanded
 * to the words it may match. A filter that must hold yields word requirements: necessary
 * conditions the GIN answers. The exact predicate, unchanged, still decides every hit.
 * Pure: no client, no SQL execution.
 */
import type { FieldPath, FilterNode } from '../dsl/ast.js';
import { isAscii, textWords } from '../dsl/text.js';

const ASCII_SPLIT = /[^a-z0-9]+/;

/** The reference's words of a string (textWords), with a faster split for ASCII (the same words: \p{L}\p{N} is [a-z0-9] there). */
export function splitWords(s: string): string[] {
  if (!isAscii(s)) return textWords(s);
  const out = s.toLowerCase().split(ASCII_SPLIT);
  return out[0] === '' || out[out.length - 1] === '' ? out.filter((w) => w !== '') : out;
}

/** The words of one string of a record, with the path they are qualified by. */
export interface WordGroup {
  readonly path: string;
  readonly words: readonly string[];
}

/** A record's searchable strings, lower-cased, each beside the path its words are qualified by. */
export interface RecordStrings {
  readonly paths: readonly string[];
  readonly texts: readonly string[];
  /** Per string, its words (textWords) when it is not all ASCII, null when it is; absent: each string is tested. */
  readonly words?: readonly (readonly string[] | null)[];
}

/** The words of a record's strings, grouped per string (the readable form; the write path scans instead). */
export function wordGroups(strings: RecordStrings): WordGroup[] {
  const out: WordGroup[] = [];
  strings.texts.forEach((text, i) => {
    const words = splitWords(text);
    if (words.length > 0) out.push({ path: strings.paths[i] as string, words });
  });
  return out;
}

/** Takes the words of a string as hashes and positions, from {@link scanWords}. */
export interface WordVisitor {
  /** The word `text.slice(start, end)`, hashed from its path's state as {@link wordHash} hashes it. */
  word(hash: number, text: string, start: number, end: number): void;
}

const isWordCode = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

/**
 * The words {@link splitWords} gives of a lower-cased string, hashed from its path's state `at`,
 * in order. An ASCII string is scanned in place: no word string is built, since most words of a
 * sync are known already and only a new one needs its text. `words`: the string's words when the
 * caller split it already (not all ASCII), null when it knows the string is all ASCII.
 */
export function scanWords(lower: string, at: number, v: WordVisitor, words: readonly string[] | null = isAscii(lower) ? null : textWords(lower)): void {
  if (words !== null) {
    for (const w of words) v.word(wordHash(at, w), w, 0, w.length);
    return;
  }
  let h = at;
  let start = -1;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (isWordCode(c)) {
      if (start < 0) {
        start = i;
        h = at;
      }
      h = Math.imul(h ^ c, 0x01000193);
    } else if (start >= 0) {
      v.word(h | 0, lower, start, i);
      start = -1;
    }
  }
  if (start >= 0) v.word(h | 0, lower, start, lower.length);
}

/** The tokens (`path:word`) of word groups, distinct and sorted: the readable form of `words`. */
export function tokensOf(groups: readonly WordGroup[]): string[] {
  return [...new Set(groups.flatMap((g) => g.words.map((w) => token(g.path, w))))].sort();
}

/** The hash state of a path within a tenant: every word hash at that path continues from it. */
export const pathSeed = (tenant: number, path: string): number => fnv(fnv(tenant, path), ':');

/** The hash of a word from its path's state ({@link pathSeed}): the same value as {@link tokenHash} of `path:word`. */
export const wordHash = (path: number, word: string): number => fnv(path, word) | 0;

/** Hashes in numeric order without repeats (sorted natively: a comparator costs more than the rest of the hashing). */
export function distinctSorted(hashes: readonly number[]): number[] {
  return distinctOf(new Int32Array(hashes).sort());
}

/** The values of a sorted array, each once (the array is reordered: see distinctInPlace). */
export function distinctOf(sorted: Int32Array): number[] {
  return Array.from(sorted.subarray(0, distinctInPlace(sorted)));
}

/** Moves a sorted array's values, each once, to its front; returns how many there are. */
export function distinctInPlace(sorted: Int32Array): number {
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i] as number;
  return n;
}

/**
 * The indexed `words` of a record: the tenant's hash of each token, distinct and in numeric order
 * (a record read back gives the same array, so a reindex rewrites nothing).
 */
export function hashWords(seed: number, groups: readonly WordGroup[]): number[] {
  const out: number[] = [];
  for (const g of groups) {
    const at = pathSeed(seed, g.path);
    for (const w of g.words) out.push(wordHash(at, w));
  }
  return distinctSorted(out);
}

/**
 * The hash state of a tenant (connector and entity): every word hash of the tenant starts from it.
 * FNV-1a, 32 bits, over UTF-16 code units: cheap, stable, and only ever a pre-filter.
 */
export function tenantSeed(connectorId: string, entity: string): number {
  return fnv(0x811c9dc5, `${connectorId}/${entity}\u0000`);
}

function fnv(seed: number, s: string): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** The indexed form of a token (`path:word`) of a tenant: a signed 32-bit hash (an int4). */
export const tokenHash = (seed: number, token: string): number => fnv(seed, token) | 0;

/** One vocabulary entry: a word at a path. */
export interface VocabEntry {
  readonly path: string;
  readonly word: string;
}

/** The token of a word at a path. */
export const token = (path: string, word: string): string => `${path}:${word}`;

/** The qualified path of a filter path, under the `any` paths enclosing it. */
export const qualifiedPath = (prefix: string, path: FieldPath): string => [prefix, path.field, ...path.sub].filter((s, i) => i > 0 || s !== '').join('.');

/**
 * A necessary condition on `words`: some alternative holds, an alternative being tokens that are
 * all present. `[[a, b]]` = a and b; `[[a], [b]]` = a or b; `[]` = nothing can match.
 */
export type WordRequirement = readonly (readonly string[])[];

/** A fuzzy term to expand through the vocabulary of its path. */
export interface FuzzyTerm {
  readonly path: string;
  readonly term: string;
}

/** The words of the vocabulary a fuzzy term matches, each with the term's quality on it (> 0). */
export type Expansions = ReadonlyMap<string, readonly { readonly word: string; readonly quality: number }[]>;

export const expansionKey = (t: FuzzyTerm): string => `${t.path}\u0000${t.term}`;

/** Up to this many requirements per search: each is one parameter, and a few narrow enough. */
export const MAX_WORD_REQUIREMENTS = 64;

/** Alternatives from exact string values: every word of the value, at the path. */
function exactAlternatives(path: string, values: readonly unknown[]): string[][] | null {
  const out: string[][] = [];
  for (const v of values) {
    if (typeof v !== 'string') return null;
    const words = splitWords(v);
    if (words.length === 0) return null;
    out.push(words.map((w) => token(path, w)));
  }
  return out.length === 0 ? null : out;
}

interface Walk {
  readonly lookup: readonly string[];
  readonly idField: string;
  readonly expansions: Expansions | null;
  /** A node whose requirements another condition already implies (a top tier's text node). */
  readonly skip: FilterNode | null;
}

function exactOf(node: Extract<FilterNode, { op: 'eq' | 'neq' | 'contains' | 'in' }>, prefix: string, w: Walk): WordRequirement[] {
  // Lookup fields and the id have their own indexes (keys GIN, primary key), which answer better.
  const top = prefix === '' && node.path.sub.length === 0;
  if (top && (w.lookup.includes(node.path.field) || node.path.field === w.idField)) return [];
  const alts = exactAlternatives(qualifiedPath(prefix, node.path), node.op === 'in' ? node.values : [node.value]);
  return alts === null ? [] : [alts];
}

function requirementsOf(node: FilterNode, prefix: string, w: Walk): WordRequirement[] {
  if (node === w.skip) return [];
  switch (node.op) {
    case 'eq':
    case 'contains':
    case 'in':
      return exactOf(node, prefix, w);
    case 'keyword': {
      const path = qualifiedPath(prefix, node.path);
      return [node.terms.map((t) => [token(path, t)])];
    }
    case 'fuzzy': {
      if (w.expansions === null) return [];
      const path = qualifiedPath(prefix, node.path);
      const out: WordRequirement[] = [];
      for (const term of node.terms) {
        const found = w.expansions.get(expansionKey({ path, term }));
        // Terms past the expansion budget were not looked up: they narrow nothing.
        if (found !== undefined) out.push(found.map((e) => [token(path, e.word)]));
      }
      return out;
    }
    case 'and':
      return node.filters.flatMap((f) => requirementsOf(f, prefix, w));
    case 'any':
      return requirementsOf(node.filter, qualifiedPath(prefix, node.path), { ...w, lookup: [], idField: '' });
    case 'or': {
      // One of the branches holds: so does one of their requirements' alternatives (when every
      // branch has a requirement; the first of each, which keeps it one parameter).
      const firsts = node.filters.map((f) => requirementsOf(f, prefix, w)[0]);
      return firsts.every((r) => r !== undefined) ? [firsts.flatMap((r) => r as WordRequirement)] : [];
    }
    default:
      // `not` and the other operators require nothing of the words.
      return [];
  }
}

/**
 * What a filter requires of `words` (each requirement holds for every record the filter matches),
 * at most {@link MAX_WORD_REQUIREMENTS}. Conjunctions are followed (`and`, and `any`, whose
 * element lies inside the record), and an `or` whose every branch requires something requires
 * one of those; `not` requires nothing. `expansions`: fuzzy terms expanded through the vocabulary
 * ({@link fuzzyTerms}); null leaves fuzzy out. `skip`: a node left out (the caller requires more of it).
 */
export function wordRequirements(node: FilterNode, lookup: readonly string[], idField: string, expansions: Expansions | null, skip: FilterNode | null = null): WordRequirement[] {
  return requirementsOf(node, '', { lookup, idField, expansions, skip }).slice(0, MAX_WORD_REQUIREMENTS);
}

function collectFuzzy(node: FilterNode, prefix: string): FuzzyTerm[] {
  switch (node.op) {
    case 'fuzzy': {
      const path = qualifiedPath(prefix, node.path);
      return node.terms.map((term) => ({ path, term }));
    }
    case 'and':
    case 'or':
      return node.filters.flatMap((f) => collectFuzzy(f, prefix));
    case 'any':
      return collectFuzzy(node.filter, qualifiedPath(prefix, node.path));
    default:
      return [];
  }
}

/** The fuzzy terms a filter's conjunctions hold, with their qualified paths: the first {@link MAX_WORD_REQUIREMENTS}. */
export function fuzzyTerms(node: FilterNode): FuzzyTerm[] {
  return collectFuzzy(node, '').slice(0, MAX_WORD_REQUIREMENTS);
}
