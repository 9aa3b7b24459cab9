/**
 * int4[] in Postgres's binary format (array_recv), for a statement parameter sent as bytes: a
 * page's word hashes go as one such array, four bytes each, instead of as decimal text inside the
 * page's JSON, which both the worker and Postgres spent more on than on the words' own hashing.
 * Pure: numbers in, bytes out.
 */

/** The element type of int4[]: array_recv refuses any other. */
const INT4_OID = 23;

/** `values` as a one-dimensional int4[] (lower bound 1); no values: the empty array. */
export function int4ArrayBinary(values: ArrayLike<number>): Buffer {
  const count = values.length;
  // Dimensions, no nulls, element type; for one dimension, `count` elements from 1 (an empty
  // array has no dimension); then each element as its length, 4, and its value.
  const header = count === 0 ? [0, 0, INT4_OID] : [1, 0, INT4_OID, count, 1];
  const out = Buffer.allocUnsafe(4 * header.length + 8 * count);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  header.forEach((x, i) => view.setInt32(4 * i, x));
  let at = 4 * header.length;
  for (let i = 0; i < count; i++) {
    view.setInt32(at, 4);
    view.setInt32(at + 4, values[i] as number);
    at += 8;
  }
  return out;
}
