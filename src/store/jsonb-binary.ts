/**
 * JSON arrays in jsonb's binary input format (a version byte, then the JSON text), for statement
 * parameters sent as bytes: pg sends a Buffer as it is, where a string parameter is measured and
 * encoded first. Pure: values in, bytes out.
 */

/** jsonb's binary input: format version 1, then the JSON text. */
const JSONB_VERSION = 1;
const OPEN = 0x5b;
const COMMA = 0x2c;
const CLOSE = 0x5d;
const JSONB_ARRAY_OPEN = Uint8Array.of(JSONB_VERSION, OPEN);
const COMMA_BYTES = Uint8Array.of(COMMA);
const CLOSE_BYTES = Uint8Array.of(CLOSE);

/**
 * Values serialized per `JSON.stringify` call. One call for a whole page's rows made a string
 * of a few hundred kilobytes that V8 builds in pieces and joins on first read: reading it once
 * (to measure or encode it) cost about 3 µs per record, 25 times a second read, where strings
 * of 40 rows cost about a seventh of that (bench/README.md, session 45).
 */
const VALUES_PER_CHUNK = 32;

/** `values` as one jsonb array, serialized a few at a time. */
export function jsonbArray(values: readonly unknown[]): Buffer {
  const chunks: string[] = [];
  // Version byte and brackets, and a comma between chunks.
  let size = 3 + Math.max(0, Math.ceil(values.length / VALUES_PER_CHUNK) - 1);
  for (let i = 0; i < values.length; i += VALUES_PER_CHUNK) {
    const chunk = JSON.stringify(values.slice(i, i + VALUES_PER_CHUNK));
    chunks.push(chunk);
    size += Buffer.byteLength(chunk) - 2;
  }
  const out = Buffer.allocUnsafe(size);
  out.set(JSONB_ARRAY_OPEN);
  let at = JSONB_ARRAY_OPEN.length;
  chunks.forEach((chunk, i) => {
    if (i > 0) out[at++] = COMMA;
    // The chunk's own brackets dropped: its elements join the one array.
    at += out.write(chunk.slice(1, -1), at);
  });
  out[at] = CLOSE;
  return out;
}

/** Elements that are JSON texts already (as UTF-8), as one jsonb array: nothing parsed or encoded again. */
export function jsonbArrayOfTexts(texts: readonly Uint8Array[]): Buffer {
  const parts: Uint8Array[] = [JSONB_ARRAY_OPEN];
  texts.forEach((t, i) => (i === 0 ? parts.push(t) : parts.push(COMMA_BYTES, t)));
  parts.push(CLOSE_BYTES);
  return Buffer.concat(parts);
}
