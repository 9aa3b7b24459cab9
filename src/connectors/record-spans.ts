/**
 * Where each record of a runtime page lies in the page's bytes: the worker hashes and stores a
 * record's JSON as the runtime sent it, instead of serializing the parsed record again (which,
 * with its UTF-8 encoding for the hash and the statement, was the largest of the worker's own
 * steps in its profile; bench/README.md, session 34). The page has been parsed already, so its bytes are valid
 * JSON: the scan only tells values apart, it validates nothing. It reads bytes, where
 * search/json-projection.ts reads a document's text: a record's bytes are what is stored and
 * hashed, and decoding them to find its ends would cost what cutting them saves.
 * Pure: bytes in, offsets out.
 */
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COMMA, isSpace, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from '../json-syntax.js';

/** One value's bytes: `[start, end)`. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * A page's bytes, with a view that reads four of them at once: most of a page is string
 * contents, which the scan skips a word at a time (about a third of its time, session 37).
 */
interface Bytes {
  readonly b: Uint8Array;
  readonly view: DataView;
  readonly n: number;
}

const bytesOf = (b: Uint8Array): Bytes => ({ b, view: new DataView(b.buffer, b.byteOffset, b.byteLength), n: b.length });

function skipSpace(p: Bytes, i: number): number {
  while (isSpace(p.b[i])) i++;
  return i;
}

/** Whether any of the four bytes in `x` is a quote or a backslash (a zero byte after xor; no false negatives). */
function quoteOrBackslash(x: number): boolean {
  const q = x ^ 0x22222222;
  const s = x ^ 0x5c5c5c5c;
  return ((((q - 0x01010101) & ~q) | ((s - 0x01010101) & ~s)) & 0x80808080) !== 0;
}

/** The end of the string opening at `i`. */
function stringEnd(p: Bytes, i: number): number {
  const { b, view, n } = p;
  let at = i + 1;
  for (;;) {
    while (at + 4 <= n && !quoteOrBackslash(view.getUint32(at, true))) at += 4;
    if (at >= n) return -1;
    const c = b[at];
    if (c === QUOTE) return at + 1;
    at += c === BACKSLASH ? 2 : 1;
  }
}

/** The end of the value starting at `i` (an object, array, string, number or literal); -1 past the bytes. */
function valueEnd(p: Bytes, i: number): number {
  const { b, n } = p;
  const first = b[i];
  if (first === QUOTE) return stringEnd(p, i);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    let at = i;
    while (at < n && b[at] !== COMMA && b[at] !== CLOSE_OBJECT && b[at] !== CLOSE_ARRAY && !isSpace(b[at])) at++;
    return at;
  }
  let depth = 0;
  for (let at = i; at < n; at++) {
    const c = b[at];
    if (c === QUOTE) {
      at = stringEnd(p, at) - 1;
      if (at < 0) return -1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (--depth === 0) return at + 1;
    }
  }
  return -1;
}

/** What a value is read for: `skip` finds its end; `elements` its elements' spans too (null: it is no array). */
type Reading = 'skip' | 'elements';

/** The end of the value at `i` and, when asked for, its elements' spans; -1 past the bytes. */
function readValue(p: Bytes, i: number, reading: Reading): { end: number; spans: Span[] | null } {
  const { b, n } = p;
  if (reading === 'skip' || b[i] !== OPEN_ARRAY) return { end: valueEnd(p, i), spans: null };
  const spans: Span[] = [];
  let at = skipSpace(p, i + 1);
  while (at < n && b[at] !== CLOSE_ARRAY) {
    const end = valueEnd(p, at);
    if (end < 0) return { end: -1, spans: null };
    spans.push({ start: at, end });
    at = skipSpace(p, end);
    if (b[at] === COMMA) at = skipSpace(p, at + 1);
  }
  return { end: at + 1, spans };
}

/**
 * The member `key` of the object at `i`: its span, and its elements' spans when asked for. Null
 * when the object has none, or when a key is written with an escape (its bytes are not its name;
 * rare enough to leave to the caller's other path). The last member of that name wins, as it
 * does for JSON.parse, so every member is read: the one asked for is read once.
 */
function member(p: Bytes, i: number, key: Uint8Array, reading: Reading): { span: Span; spans: Span[] | null } | null {
  const { b } = p;
  if (b[i] !== OPEN_OBJECT) return null;
  let found: { span: Span; spans: Span[] | null } | null = null;
  let at = skipSpace(p, i + 1);
  while (b[at] === QUOTE) {
    const keyEnd = stringEnd(p, at);
    if (keyEnd < 0 || b.subarray(at + 1, keyEnd - 1).includes(BACKSLASH)) return null;
    const named = keyEnd - at - 2 === key.length && b.subarray(at + 1, keyEnd - 1).every((c, k) => c === key[k]);
    const start = skipSpace(p, skipSpace(p, keyEnd) + 1);
    const value = readValue(p, start, named ? reading : 'skip');
    if (value.end < 0) return null;
    if (named) found = { span: { start, end: value.end }, spans: value.spans };
    at = skipSpace(p, value.end);
    if (b[at] === COMMA) at = skipSpace(p, at + 1);
  }
  return found;
}

const encoder = new TextEncoder();

/**
 * The spans of a page's values at `path` (one or more object keys from the top, e.g. `['data']`
 * or `['data', 'items']`): of each element when that value is an array (`list`), or of the value
 * itself. Null when the path is not there, or goes through a key written with an escape.
 */
export function pageSpans(body: Uint8Array, path: readonly [string, ...string[]], list: boolean): Span[] | null {
  const p = bytesOf(body);
  let at = skipSpace(p, 0);
  for (let k = 0; ; k++) {
    const last = k === path.length - 1;
    const found = member(p, at, encoder.encode(path[k] as string), last && list ? 'elements' : 'skip');
    if (found === null || last) return found === null ? null : list ? found.spans : [found.span];
    at = found.span.start;
  }
}
