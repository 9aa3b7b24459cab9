/**
 * The document the OpenSearch backend indexes for a record: the searchable projection as is
 * (it becomes `_source`) plus the derived `sx` object (names.ts) that queries read. Everything a
 * query compares is computed HERE, in TypeScript, with the reference evaluator's own functions
 * (candidates, presence, String#toLowerCase, textWords, sortable), so OpenSearch never has to
 * tokenise, lower-case, coerce or guess a JSON type: it only compares terms.
 *
 * A SLOT describes the value at one path, following reference/values.ts:
 *   p  present (a non-null candidate exists)          a  the value is a JSON array
 *   n  number candidates   s  string candidates       b  boolean candidates
 *   l  lower-cased string candidates (for `like`)
 *   w  words of the value's only string candidate     t  [{w}] one group per string candidate,
 *      (flat: the common single-string case)             when there are two or more (nested, so
 *                                                         fuzzy can demand ONE string per match)
 *      In format 2 (names.ts DOC_FORMAT) every word starts with its connector's tag.
 *   o  sort key of a scalar value (absent for missing, null, arrays, objects)
 * Entries (object and array fields, and their sub-paths) add `k` (the path) and `e` (the object
 * elements of an array, each `{i, x: entries}`), for `any`.
 */
import type { Scalar, SearchTarget } from '../dsl/ast.js';
import { textWords } from '../dsl/text.js';
import { sortable } from '../reference/order.js';
import { candidates, isJsonObject, isPresent } from '../reference/values.js';
import { ANY_DEPTH, DOC_FORMAT, entryKey, isFlatType, ROOT, SLOT_FIELDS, slotKey, STRING_CAP, wordTag } from './names.js';

export interface Slot {
  p?: boolean;
  a?: boolean;
  n?: number[];
  s?: string[];
  b?: boolean[];
  l?: string[];
  w?: string[];
  t?: { w: string[] }[];
  o?: string;
}

export interface Entry extends Slot {
  k: string;
  e?: { i: number; x: Entry[] }[];
}

/** The first STRING_CAP code points of a string (Lucene's term size limit, see names.ts). */
export function capString(s: string): string {
  if (s.length <= STRING_CAP) return s;
  return Array.from(s).slice(0, STRING_CAP).join('');
}

/**
 * Sort key of a present scalar as ONE keyword whose byte order is the reference order:
 * numbers (`1` + order-preserving hex of the IEEE-754 double) < strings (`2` + the string,
 * UTF-8 byte order = code point order) < booleans (`3` + `0`/`1`). Missing values get
 * {@link MISSING_SORT_KEY} through the sort's `missing` option, last in both directions.
 */
export function sortKeyOf(v: Scalar): string | null {
  if (typeof v === 'number') return `1${sortableDoubleHex(v)}`;
  if (typeof v === 'string') return `2${capString(v)}`;
  if (typeof v === 'boolean') return v ? '31' : '30';
  return null;
}

/** `missing` of a sort clause: above every key ascending ('9'), below every key descending ('0'). */
export const MISSING_SORT_KEY = { asc: '9', desc: '0' } as const;

function sortableDoubleHex(x: number): string {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleBE(x === 0 ? 0 : x); // -0 equals 0 in the reference
  if ((bytes[0] as number) & 0x80) {
    for (let i = 0; i < 8; i += 1) bytes[i] = ~(bytes[i] as number) & 0xff;
  } else {
    bytes[0] = (bytes[0] as number) | 0x80;
  }
  return bytes.toString('hex');
}

/** The distinct words of a string, each behind the connector's tag (names.ts `wordTag`). */
function words(s: string, tag: string): string[] {
  return [...new Set(textWords(s).map(capString))].map((w) => tag + w);
}

/** The slot of a value (`withSort`: add the sort key; only record-level paths are sortable; `tag`: its words' tag). */
export function slotOf(value: unknown, withSort: boolean, tag = ''): Slot {
  const cands = candidates(value);
  const strings = cands.filter((c): c is string => typeof c === 'string');
  const slot: Slot = { p: isPresent(value) };
  if (Array.isArray(value)) slot.a = true;
  const n = cands.filter((c): c is number => typeof c === 'number' && Number.isFinite(c));
  const b = cands.filter((c): c is boolean => typeof c === 'boolean');
  if (n.length > 0) slot.n = n;
  if (strings.length > 0) {
    slot.s = strings.map(capString);
    slot.l = strings.map((s) => capString(s.toLowerCase()));
  }
  if (b.length > 0) slot.b = b;
  if (strings.length === 1) slot.w = words(strings[0] as string, tag);
  if (strings.length > 1) slot.t = strings.map((s) => ({ w: words(s, tag) }));
  const key = withSort ? sortKeyOf(sortable(value)) : null;
  if (key !== null) slot.o = key;
  return slot;
}

/** Keeps only the subfields a flat slot of this type declares (the mapping is strict). */
function pick(slot: Slot, fields: readonly string[]): Slot {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(slot)) if (fields.includes(k)) out[k] = v;
  return out as Slot;
}

/** Entries of a value at `path` and of every path below it through objects. */
function entriesAt(value: unknown, path: readonly string[], level: number, tag: string): Entry[] {
  const entry: Entry = { k: entryKey(path), ...slotOf(value, level === 0, tag) };
  if (Array.isArray(value) && level < ANY_DEPTH) {
    const elements = value.flatMap((el, i) => (isJsonObject(el) ? [{ i, x: elementEntries(el, level + 1, tag) }] : []));
    if (elements.length > 0) entry.e = elements;
  }
  const below = isJsonObject(value) ? Object.entries(value).flatMap(([k, v]) => entriesAt(v, [...path, k], level, tag)) : [];
  return [entry, ...below];
}

/** Entries of one array element: its keys are the roots of `any`'s element-relative paths. */
function elementEntries(element: Record<string, unknown>, level: number, tag: string): Entry[] {
  return Object.entries(element).flatMap(([k, v]) => entriesAt(v, [k], level, tag));
}

/** The `sx` object of a record, its words behind `tag` (names.ts `wordTag`: the caller computes it once per connector). */
export function derivedFields(
  target: SearchTarget,
  connectorId: string,
  recordId: string,
  version: string,
  doc: Readonly<Record<string, unknown>>,
  tag = wordTag(DOC_FORMAT, connectorId),
): Record<string, unknown> {
  const f: Record<string, Slot> = {};
  const x: Entry[] = [];
  for (const [field, type] of Object.entries(target.searchable)) {
    if (!Object.hasOwn(doc, field) || doc[field] === undefined) continue;
    if (isFlatType(type)) f[slotKey(field)] = pick(slotOf(doc[field], true, tag), SLOT_FIELDS[type]);
    else x.push(...entriesAt(doc[field], [field], 0, tag));
  }
  return { c: connectorId, id: recordId, v: version, f, x };
}

/** What is sent to OpenSearch: the projection (kept as `_source`) plus `sx` (not kept). */
export function indexDocument(
  target: SearchTarget,
  connectorId: string,
  recordId: string,
  version: string,
  doc: Readonly<Record<string, unknown>>,
  tag = wordTag(DOC_FORMAT, connectorId),
): Record<string, unknown> {
  return { ...doc, [ROOT]: derivedFields(target, connectorId, recordId, version, doc, tag) };
}
