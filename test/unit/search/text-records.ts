/** Random records for the write path's text properties: nested objects, arrays and unicode strings under a fixed searchable set. */
import fc from 'fast-check';

/** The searchable fields the records are drawn for (`secret` is drawn too, and never searchable). */
export const SEARCHABLE = { name: 'string', tags: 'array', address: 'object', metadata: 'object' };

/** Records whose strings are made of `chars` (or are among `words`, or, with `binary`, any code units) and whose object keys come from `keys`. */
export function textRecords(opts: { chars: readonly string[]; keys: readonly string[]; words: readonly string[]; binary?: boolean; maxLength: number }): fc.Arbitrary<Record<string, unknown>> {
  const made = fc.array(fc.constantFrom(...opts.chars), { maxLength: opts.maxLength }).map((cs) => cs.join(''));
  const text = opts.binary === true ? fc.oneof(made, fc.string({ unit: 'binary', maxLength: opts.maxLength }), fc.constantFrom(...opts.words)) : fc.oneof(made, fc.constantFrom(...opts.words));
  const key = fc.constantFrom(...opts.keys);
  const value = fc.letrec((tie) => ({
    leaf: fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null)),
    node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(key, tie('node'), { maxKeys: 3 })),
  })).node;
  return fc.record({ name: value, tags: fc.array(value, { maxLength: 4 }), address: value, metadata: fc.dictionary(key, value, { maxKeys: 4 }), secret: text }, { requiredKeys: [] });
}
