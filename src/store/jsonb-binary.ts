/**
 * JSON arrays in jsonb's binary input format (a version byte, then the JSON text), for statement
 * parameters sent as bytes: pg sends a Buffer as it is, where a string parameter is measured and
 * encoded first. Pure: values in, bytes out.
 */

/** jsonb's binary input: format version 1, then the JSON text. */
const JSONB_ARRAY_OPEN = Uint8Array.of(1, 0x5b);
const COMMA = Uint8Array.of(0x2c);
const ARRAY_CLOSE = Uint8Array.of(0x5d);

/**
 * Values serialized per `JSON.stringify` call. One call for a whole page's rows made a string
 * of a few hundred kilobytes that V8 builds in pieces and joins on first read: reading it once
 * (to measure or encode it) cost about 3 µs per record, 25 times a second read, where strings
 * of this many rows cost a tenth of that (bench/README.md, session 45).
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
  out[0] = 1;
  out[1] = 0x5b;
  let at = 2;
  chunks.forEach((chunk, i) => {
    if (i > 0) out[at++] = 0x2c;
    // The chunk's own brackets dropped: its elements join the one array.
    at += out.write(chunk.slice(1, -1), at);
  });
  out[at] = 0x5d;
  return out;
}

/** Elements that are JSON texts already (as UTF-8), as one jsonb array: nothing parsed or encoded again. */
export function jsonbArrayOfTexts(texts: readonly Uint8Array[]): Buffer {
  const parts: Uint8Array[] = [JSONB_ARRAY_OPEN];
  texts.forEach((t, i) => (i === 0 ? parts.push(t) : parts.push(COMMA, t)));
  parts.push(ARRAY_CLOSE);
  return Buffer.concat(parts);
}
