/**
 * The write path's words (search-text.ts walks, page-words.ts scans and hashes in place) equal
 * the reference's: every string of the searchable fields lower-cased, split by textWords, each
 * word qualified by its object path, hashed per tenant; and a first page reports each of those
 * tokens as new exactly once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textWords } from '../../../src/search/dsl/text.js';
import { recordSearchText } from '../../../src/search/postgres/search-text.js';
import { tenantSeed, tokenHash } from '../../../src/search/postgres/word-index.js';
import { indexWords, rememberWords } from '../../../src/store/page-words.js';
import { SEARCHABLE, textRecords } from './text-records.js';

const CHARS = ['a', 'Z', 'q', '0', '9', ' ', '-', '_', '.', '@', '/', '`', '{', '[', '\u007f', '\u0000', '\n', 'é', 'İ', 'ß', 'Σ', 'ς', '٣', '😀', '\u00a0', '\u212a', 'ﬀ'];
const record = textRecords({ chars: CHARS, keys: ['city', 'zip', 'note', 'a.b', '', 'É'], words: ['ada', 'Ada Lovelace', 'the', 'THE the'], binary: true, maxLength: 30 });

/** The reference: paths as object keys from the record down (arrays skipped), words as textWords splits them. */
function referenceTokens(data: Record<string, unknown>): string[] {
  const out: string[] = [];
  const walk = (v: unknown, path: string): void => {
    if (typeof v === 'string') for (const w of textWords(v.toLowerCase())) out.push(`${path}:${w}`);
    else if (Array.isArray(v)) for (const x of v) walk(x, path);
    else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
  };
  for (const field of Object.keys(SEARCHABLE)) if (Object.hasOwn(data, field)) walk(data[field], field);
  return [...new Set(out)];
}

let tenants = 0;

describe('the scanned words of a record', () => {
  it('hash the reference tokens, distinct and sorted, and a first page reports each token once', () => {
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 4 }), (page) => {
        const tenant = `scan-${tenants++}`;
        const seed = tenantSeed(tenant, 'customers');
        const indexed = indexWords(tenant, 'customers', page.map((data) => ({ strings: recordSearchText(SEARCHABLE, data).strings })));
        page.forEach((data, i) => {
          const expected = [...new Set(referenceTokens(data).map((t) => tokenHash(seed, t)))].sort((a, b) => a - b);
          expect(indexed.words.of(i)).toEqual(expected);
        });
        const all = [...new Set(page.flatMap(referenceTokens))].sort();
        expect(indexed.fresh.map((e) => `${e.path}:${e.word}`).sort()).toEqual(all);
        for (const e of indexed.fresh) expect(e.hash).toBe(tokenHash(seed, `${e.path}:${e.word}`));
        rememberWords(tenant, 'customers', indexed.fresh);
        expect(indexWords(tenant, 'customers', page.map((data) => ({ strings: recordSearchText(SEARCHABLE, data).strings }))).fresh).toEqual([]);
      }),
      { numRuns: 1500 },
    );
  });

  it('free-form keys past the remembered paths (10,000 per entity, 50,000 path states) still give the reference tokens', () => {
    const metadata = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, `v${i % 7} Word`]));
    const data = { name: 'Ada', metadata };
    const strings = recordSearchText(SEARCHABLE, data).strings;
    expect(strings.paths.slice(-2)).toEqual(['metadata.k9998', 'metadata.k9999']);
    const seed = tenantSeed('scan-wide', 'customers');
    const expected = [...new Set(referenceTokens(data).map((t) => tokenHash(seed, t)))].sort((a, b) => a - b);
    expect(indexWords('scan-wide', 'customers', [{ strings }]).words.of(0)).toEqual(expected);
    // Again, with the trees and states full: the same answer.
    expect(indexWords('scan-wide', 'customers', [{ strings: recordSearchText(SEARCHABLE, data).strings }]).words.of(0)).toEqual(expected);
  });

  it('the search text is every searchable string lower-cased, one per line, object keys in sorted order', () => {
    const { text: t, strings } = recordSearchText(SEARCHABLE, { secret: 'X', name: 'ÀDA', address: { zip: 'Z1', city: 'London' }, tags: ['VIP', 2, ['Deep']] });
    expect(t).toBe('àda\nvip\ndeep\nlondon\nz1');
    expect(strings.paths).toEqual(['name', 'tags', 'tags', 'address.city', 'address.zip']);
  });
});
