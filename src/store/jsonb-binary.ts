/**
 * JSON in jsonb's binary input format (a version byte, then the JSON text), for statement
 * parameters sent as bytes: pg sends a Buffer as it is, where a string parameter is measured and
 * encoded first. Pure: values in, bytes out.
 */
import { CLOSE_ARRAY, COMMA, OPEN_ARRAY } from '../json-syntax.js';

/** jsonb's binary input format version, the byte before the JSON text. */
const JSONB_VERSION = 1;
const VERSION_BYTE = Uint8Array.of(JSONB_VERSION);
const COMMA_BYTE = Uint8Array.of(COMMA);
const CLOSE_BYTE = Uint8Array.of(CLOSE_ARRAY);
const ARRAY_START = Uint8Array.of(JSONB_VERSION, OPEN_ARRAY);

/**
 * Values serialized per `JSON.stringify` call. One call for a whole page's rows made a string
 * of a few hundred kilobytes that V8 builds in pieces and joins on first read: reading it once
 * (to measure or encode it) cost about 3 µs per record, 25 times a second read, where strings
 * of 40 rows cost about a seventh of that (bench/README.md, session 45).
 */
const VALUES_PER_CHUNK = 32;

/** A JSON text (UTF-8) as jsonb binary input. */
export function jsonbOf(text: Uint8Array): Buffer {
  return Buffer.concat([VERSION_BYTE, text]);
}

/** `values` as one jsonb array, serialized a few at a time. */
export function jsonbArray(values: readonly unknown[]): Buffer {
  // Each chunk's elements, its own brackets dropped, to join the one array.
  const chunks: string[] = [];
  let size = ARRAY_START.length + CLOSE_BYTE.length;
  for (let i = 0; i < values.length; i += VALUES_PER_CHUNK) {
    const chunk = JSON.stringify(values.slice(i, i + VALUES_PER_CHUNK)).slice(1, -1);
    size += Buffer.byteLength(chunk) + (chunks.length > 0 ? COMMA_BYTE.length : 0);
    chunks.push(chunk);
  }
  const out = Buffer.allocUnsafe(size);
  out.set(ARRAY_START);
  let at = ARRAY_START.length;
  chunks.forEach((chunk, i) => {
    if (i > 0) out[at++] = COMMA;
    at += out.write(chunk, at);
  });
  out[at] = CLOSE_ARRAY;
  return out;
}

/** Elements that are JSON texts already (as UTF-8), as one jsonb array: nothing parsed or encoded again. */
export function jsonbArrayOfTexts(texts: readonly Uint8Array[]): Buffer {
  const parts: Uint8Array[] = [ARRAY_START];
  texts.forEach((t, i) => (i === 0 ? parts.push(t) : parts.push(COMMA_BYTE, t)));
  parts.push(CLOSE_BYTE);
  return Buffer.concat(parts);
}
