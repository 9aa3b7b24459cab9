/**
 * A hit's `data` cut from its document's JSON text (json-projection.ts) is the reference
 * projection (reference/project.ts) of the parsed document, whatever the keys, strings, nesting
 * and whitespace; and a malformed text fails loudly instead of answering a wrong document.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SearchTarget } from '../../../src/search/dsl/ast.js';
import { jsonProjector, keepMembers } from '../../../src/search/json-projection.js';
import { projector } from '../../../src/search/reference/project.js';

const KEYS = ['name', 'email', 'a"b', 'back\\slash', '__proto__', 'é', '😀', '', 'n\nl', 'address', 'tags', 'x'];
const key = fc.oneof(fc.constantFrom(...KEYS), fc.string({ unit: 'binary', maxLength: 6 }));
const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('"', '\\', '\\"', '{"a": 1}', '[1, 2]', ', "x": ', '}', '\u2028'));
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
  node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(key, tie('node'), { maxKeys: 3 })),
})).node;
const doc = fc.dictionary(key, value, { maxKeys: 8 });

/** A value as comparable text: objects' keys sorted at every level (`__proto__` stays an own key). */
function canon(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Writes JSON as Postgres writes jsonb: `", "` between members and elements, `": "` after keys. */
function jsonbStyle(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(jsonbStyle).join(', ')}]`;
  if (typeof v === 'object' && v !== null) return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}: ${jsonbStyle((v as Record<string, unknown>)[k])}`).join(', ')}}`;
  return JSON.stringify(v);
}

const target = (fields: readonly string[]): SearchTarget => ({ connectorType: 't', entity: 'e', idField: 'id', searchable: Object.fromEntries(fields.map((f) => [f, 'string'])) }) as unknown as SearchTarget;

describe('projecting a document from its JSON text', () => {
  it('equals the reference projection of the parsed document, for the default and for top-level fields', () => {
    fc.assert(
      fc.property(doc, fc.uniqueArray(key, { maxLength: 6 }), fc.boolean(), fc.constantFrom(jsonbStyle, (v: unknown) => JSON.stringify(v), (v: unknown) => JSON.stringify(v, null, 2)), (d, fields, asFields, write) => {
        const parsed = JSON.parse(JSON.stringify(d)) as Record<string, unknown>;
        const t = target(fields);
        const selected = asFields ? fields.map((f) => [f]) : null;
        const out = jsonProjector(t, selected)(write(parsed));
        expect(canon(JSON.parse(out))).toBe(canon(projector(t, selected)(parsed)));
      }),
      { numRuns: 1500 },
    );
  });

  it('rebuilds nested paths through the reference projection', () => {
    const t = target(['name', 'address']);
    const json = jsonbStyle({ name: 'Ada', address: { city: 'London', zip: 'N1' }, other: 1 });
    expect(JSON.parse(jsonProjector(t, [['address', 'city'], ['name']])(json))).toEqual({ address: { city: 'London' }, name: 'Ada' });
  });

  it('keeps members in the document order, values byte for byte, members kept one after another as one run', () => {
    const json = '{"b": 1.50, "a": "x\\"y", "c": [1, {"d": "}"}], "e": null}';
    expect(keepMembers(json, new Set(['c', 'b', 'e']))).toBe('{"b": 1.50,"c": [1, {"d": "}"}], "e": null}');
    expect(keepMembers(json, new Set(['a', 'e']))).toBe('{"a": "x\\"y","e": null}');
    expect(keepMembers(json, new Set(['b', 'a', 'c', 'e']))).toBe(json);
    expect(keepMembers('{}', new Set(['a']))).toBe('{}');
    expect(keepMembers('{"a": 1}', new Set())).toBe('{}');
  });

  it('fails on a text that is not one JSON object', () => {
    for (const bad of ['[1]', '{"a" 1}', '{"a": 1 "b": 2}', '{"a": "x', '{"a": [1, 2}']) expect(() => keepMembers(bad, new Set(['a', 'b'])), bad).toThrow(SyntaxError);
  });
});
