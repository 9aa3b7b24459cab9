/**
 * int4[] in Postgres's binary format (array_recv), for a statement parameter sent as bytes: a
 * page's word hashes go as one such array, four bytes each, instead of as decimal text inside the
 * page's JSON, which both the worker and Postgres spent more on than on the words' own hashing.
 * Pure: numbers in, bytes out.
 */

/** The element type of int4[]: array_recv refuses any other. */
const INT4_OID = 23;

/** `values` as a one-dimensional int4[] (lower bound 1); an empty list is the empty array. */
export function int4ArrayBinary(values: readonly (readonly number[])[]): Buffer {
  let count = 0;
  for (const v of values) count += v.length;
  if (count === 0) return int32s([0, 0, INT4_OID]);
  const out = Buffer.allocUnsafe(20 + 8 * count);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  // Dimensions, no nulls, element type; one dimension of `count` from 1; then each element as length 4 and value.
  [1, 0, INT4_OID, count, 1].forEach((x, i) => view.setInt32(4 * i, x));
  let at = 20;
  for (const v of values) {
    for (let i = 0; i < v.length; i++) {
      view.setInt32(at, 4);
      view.setInt32(at + 4, v[i] as number);
      at += 8;
    }
  }
  return out;
}

function int32s(xs: readonly number[]): Buffer {
  const out = Buffer.allocUnsafe(4 * xs.length);
  xs.forEach((x, i) => out.writeInt32BE(x, 4 * i));
  return out;
}
