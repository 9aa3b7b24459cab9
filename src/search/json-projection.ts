/**
 * A hit's `data` built from the document's JSON text, without parsing it: the Postgres backend
 * reads documents as text (the search pool leaves jsonb unparsed), and an HTTP answer splices
 * each projected document into its body. Parsing a 50-hit page and serializing it again took
 * about a quarter of an execute request's CPU (bench/README.md, session 25).
 * Pure: no client, no SQL execution.
 */
import type { SearchTarget } from './dsl/ast.js';
import { projector, type Projector } from './reference/project.js';
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, isSpace, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from '../json-syntax.js';

/** Projects one document's JSON text to the JSON text of its `data` (as reference/project.ts projects it). */
export type JsonProjector = (json: string) => string;

function skipSpace(s: string, i: number): number {
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}

/** The index just past the string whose opening quote is at `i`. */
function endOfString(s: string, i: number): number {
  for (let j = i + 1; ; ) {
    const q = s.indexOf('"', j);
    if (q < 0) throw new SyntaxError('unterminated string in a stored document');
    // The quote is escaped when an odd number of backslashes precede it.
    let b = q - 1;
    while (s.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** The index just past the JSON value starting at `i`. */
function endOfValue(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === QUOTE) return endOfString(s, i);
  if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) {
    let j = i;
    while (j < s.length) {
      const d = s.charCodeAt(j);
      if (d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY || isSpace(d)) break;
      j++;
    }
    return j;
  }
  let depth = 0;
  for (let j = i; j < s.length; ) {
    const d = s.charCodeAt(j);
    if (d === QUOTE) {
      j = endOfString(s, j);
      continue;
    }
    if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth++;
    else if ((d === CLOSE_OBJECT || d === CLOSE_ARRAY) && --depth === 0) return j + 1;
    j++;
  }
  throw new SyntaxError('unterminated value in a stored document');
}

/** A member's key: the text between its quotes, unescaped only when it holds an escape. */
function keyOf(s: string, start: number, end: number): string {
  const raw = s.slice(start + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(s.slice(start, end)) as string) : raw;
}

/**
 * The members of a JSON object's text whose keys are in `keep`, as the text of an object (members
 * in the document's order). The text must be one JSON object, as Postgres writes jsonb. Members
 * kept one after another are cut as one run, separators and all: a 50-hit page's projection and
 * its encoding took 6.8 µs per customer cut member by member, 4.8 cut in runs (bench/README.md,
 * session 47), and most kept members follow another kept one.
 */
export function keepMembers(json: string, keep: ReadonlySet<string>): string {
  let i = skipSpace(json, 0);
  if (json.charCodeAt(i) !== OPEN_OBJECT) throw new SyntaxError('a stored document is not a JSON object');
  i = skipSpace(json, i + 1);
  if (json.charCodeAt(i) === CLOSE_OBJECT) return '{}';
  let out = '';
  let run = -1;
  let runEnd = -1;
  const cut = (): void => {
    out += out === '' ? json.slice(run, runEnd) : `,${json.slice(run, runEnd)}`;
    run = -1;
  };
  for (;;) {
    const keyStart = i;
    const keyEnd = endOfString(json, i);
    i = skipSpace(json, keyEnd);
    if (json.charCodeAt(i) !== COLON) throw new SyntaxError('a stored document has a member without a colon');
    const valueEnd = endOfValue(json, skipSpace(json, i + 1));
    if (!keep.has(keyOf(json, keyStart, keyEnd))) {
      if (run >= 0) cut();
    } else {
      if (run < 0) run = keyStart;
      runEnd = valueEnd;
    }
    i = skipSpace(json, valueEnd);
    const next = json.charCodeAt(i);
    if (next === CLOSE_OBJECT) {
      if (run >= 0) cut();
      return `{${out}}`;
    }
    if (next !== COMMA) throw new SyntaxError('a stored document has members without a comma between them');
    i = skipSpace(json, i + 1);
  }
}

/**
 * The projector of a search's hits on JSON text. Top-level fields (the default: the target's
 * searchable fields; or `fields` that keep whole top-level fields) are cut from the text; a
 * projection with nested paths rebuilds objects, so it parses the document and runs `project`,
 * the same projection in process.
 */
export function jsonProjector(target: SearchTarget, fields: readonly (readonly string[])[] | null, project: Projector = projector(target, fields)): JsonProjector {
  const kept = project.kept;
  if (kept.every((p) => p.length === 1)) {
    const keep = new Set(kept.map((p) => p[0] as string));
    return (json) => keepMembers(json, keep);
  }
  return (json) => JSON.stringify(project(JSON.parse(json) as Record<string, unknown>));
}
