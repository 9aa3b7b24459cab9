/** The page writer's word split (a faster path for ASCII) gives the reference's words (textWords) for every string. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textWords } from '../../../src/search/dsl/text.js';
import { splitWords } from '../../../src/search/postgres/word-index.js';

/** Characters around the ASCII word boundaries, and a few beyond ASCII that must fall back. */
const CHARS = ['a', 'Z', 'q', '0', '9', ' ', '-', '_', '.', '@', '/', '`', '{', '[', '\u007f', '\u0000', '\n', 'é', 'İ', 'ß', 'Σ', '٣', '😀', '\u00a0', '\u212a'];

describe('splitWords', () => {
  it('equals textWords on strings of boundary characters (ASCII and not)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...CHARS), { maxLength: 40 }).map((cs) => cs.join('')), (s) => {
        expect(splitWords(s)).toEqual(textWords(s));
      }),
      { numRuns: 2000 },
    );
  });

  it('equals textWords on arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => void expect(splitWords(s)).toEqual(textWords(s))), { numRuns: 1000 });
  });

  it('keeps edge words and drops empty ones', () => {
    expect(splitWords('--Ada  LOVELACE-King99--')).toEqual(['ada', 'lovelace', 'king99']);
    expect(splitWords('x')).toEqual(['x']);
    expect(splitWords('')).toEqual([]);
    expect(splitWords('...')).toEqual([]);
    expect(splitWords('naïve-796')).toEqual(['naïve', '796']);
  });
});
