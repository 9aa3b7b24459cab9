/**
 * The least work a worker that never parses its pages does to find a record's searchable strings:
 * one pass over the record's JSON text that skips keys, follows nesting, and cuts out each string
 * value under a searchable top-level member (JSON.parse only for one written with an escape). The
 * bench's byte-level least derivation (write-path-cpu.ts) starts from it. The text must be valid
 * JSON (the runtime's own bytes): nothing is validated.
 */
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from '../../src/json-syntax.js';

const MAX_DEPTH = 256;
const IN_OBJECT = 1;
/** Containers open at each depth (reused: the scan is synchronous). */
const open = new Uint8Array(MAX_DEPTH);

/** The end (the closing quote's index) of the string whose opening quote is at `i`, and whether it holds an escape. */
function stringEnd(text: string, i: number): { end: number; escaped: boolean } {
  let at = i + 1;
  let escaped = false;
  for (;;) {
    const c = text.charCodeAt(at);
    if (c === QUOTE) return { end: at, escaped };
    if (c === BACKSLASH) {
      escaped = true;
      at += 2;
    } else at++;
  }
}

/** The string values (not keys) under the members of the top-level object `text` that `fields` names, in document order. */
export function searchableStrings(text: string, fields: ReadonlySet<string>): string[] {
  const out: string[] = [];
  let depth = 0;
  let inField = false;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const { end, escaped } = stringEnd(text, i);
      if (expectKey) {
        if (depth === 1) inField = fields.has(text.slice(i + 1, end));
        expectKey = false;
      } else if (inField) out.push(escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end));
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth >= MAX_DEPTH) throw new Error(`searchableStrings: nesting deeper than ${MAX_DEPTH}`);
      open[depth] = c === OPEN_OBJECT ? IN_OBJECT : 0;
      expectKey = c === OPEN_OBJECT;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
    else if (c === COMMA) {
      expectKey = open[depth] === IN_OBJECT;
      if (depth === 1) inField = false;
    }
  }
  return out;
}
