/**
 * The write path's one walk of a record (search-text.ts) gives what the separate, plain
 * definitions give: the search text with every object's keys in sorted order whatever order the
 * record lists them in (the walk reuses the sorted order of the last shape it met), and the text
 * shadow doc.ts `searchableShadow` gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchableShadow } from '../../../src/search/doc.js';
import { textWords } from '../../../src/search/dsl/text.js';
import { recordSearchText } from '../../../src/search/postgres/search-text.js';
import { SEARCHABLE, textRecords } from './text-records.js';

// Keys drawn from few names (integer-like ones too) in any order: records keep meeting the same
// shapes and their reorderings.
const record = textRecords({ chars: ['a', 'Z', '0', ' ', '-', '.', 'é', 'İ', 'Σ', 'ς', '😀', '\u00a0', 'ﬀ'], keys: ['city', 'zip', 'note', '2', '10', 'É'], words: ['ada', 'Ada Lovelace', 'ÀDA'], maxLength: 12 });

/** The plain definition: searchable strings lower-cased, objects' keys sorted, arrays in order. */
function referenceText(data: Record<string, unknown>): { text: string; paths: string[]; originals: string[] } {
  const texts: string[] = [];
  const paths: string[] = [];
  const originals: string[] = [];
  const walk = (v: unknown, path: string): void => {
    if (typeof v === 'string') {
      texts.push(v.toLowerCase());
      paths.push(path);
      originals.push(v);
    } else if (Array.isArray(v)) for (const x of v) walk(x, path);
    else if (typeof v === 'object' && v !== null) for (const k of Object.keys(v).sort()) walk((v as Record<string, unknown>)[k], `${path}.${k}`);
  };
  for (const field of Object.keys(SEARCHABLE)) if (Object.hasOwn(data, field)) walk(data[field], field);
  return { text: texts.join('\n'), paths, originals };
}

describe('the walk of a record for its search text and shadow', () => {
  it('gives the sorted-key text and the shadow of the plain definitions, record after record', () => {
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 6 }), (records) => {
        for (const data of records) {
          const ref = referenceText(data);
          const withShadow = recordSearchText(SEARCHABLE, data, true);
          expect(withShadow.text).toBe(ref.text);
          expect(withShadow.strings.paths).toEqual(ref.paths);
          expect(withShadow.shadow).toEqual(searchableShadow(SEARCHABLE, data));
          // Split once for the shadow and the word index: each non-ASCII string's words, as the reference splits it.
          expect(withShadow.strings.words).toEqual(withShadow.strings.texts.map((t, i) => (/^[\x00-\x7f]*$/.test(String(ref.originals[i])) ? null : textWords(t))));
          const plain = recordSearchText(SEARCHABLE, data);
          expect(plain.text).toBe(ref.text);
          expect('shadow' in plain).toBe(false);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('sorts the keys of an object whose shape it met before in another order', () => {
    const a = recordSearchText(SEARCHABLE, { address: { zip: 'Z', city: 'C', note: 'N' } });
    const b = recordSearchText(SEARCHABLE, { address: { city: 'C', note: 'N', zip: 'Z' } });
    const c = recordSearchText(SEARCHABLE, { address: { zip: 'Z', city: 'C' } });
    expect(a.text).toBe('c\nn\nz');
    expect(b.text).toBe('c\nn\nz');
    expect(c.text).toBe('c\nz');
    expect(c.strings.paths).toEqual(['address.city', 'address.zip']);
  });

  it('finds nothing in a searchable field the record lacks whose name Object.prototype has', () => {
    // The walk reads each field once (no Object.hasOwn first): what it reads for an absent
    // `toString` or `__proto__` is inherited, and must add no string, path or shadow.
    const searchable = JSON.parse('{"toString":"string","constructor":"object","__proto__":"object","name":"string"}') as Record<string, unknown>;
    const absent = recordSearchText(searchable, { name: 'Ada É' }, true);
    expect(absent.text).toBe('ada é');
    expect(absent.strings.paths).toEqual(['name']);
    expect(absent.shadow).toEqual({ name: { l: 'ada é', w: ['ada', 'é'] } });
    const own = JSON.parse('{"toString":"Grace","__proto__":{"x":"Hopper"},"name":"Ada"}') as Record<string, unknown>;
    const present = recordSearchText(searchable, own, true);
    expect(present.strings.paths).toEqual(['toString', '__proto__.x', 'name']);
    expect(present.text).toBe('grace\nhopper\nada');
  });
});
