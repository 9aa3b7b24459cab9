import { describe, expect, it } from 'vitest';
import { anchoredLikeTokens, likeTokens } from '../../../src/search/dsl/like.js';
import { queryTerms, textWords } from '../../../src/search/dsl/text.js';
import { likeMatches } from '../../../src/search/reference/like.js';
import { autoEdits, fuzzyTermQuality, levenshtein } from '../../../src/search/reference/text.js';
import { rng } from './fixtures.js';

describe('words and terms', () => {
  it('lower-case, split on anything not a Unicode letter or digit, drop empties', () => {
    expect(textWords('  Hello, WORLD!! 42nd—straße_x ')).toEqual(['hello', 'world', '42nd', 'straße', 'x']);
    expect(textWords('東京タワー 2024')).toEqual(['東京タワー', '2024']);
    expect(textWords('--')).toEqual([]);
    expect(queryTerms('a A b a')).toEqual(['a', 'b']);
  });
});

describe('like tokens', () => {
  it('tokenizes escapes and wildcards; lone trailing escape is invalid', () => {
    expect(likeTokens('a\\%_%')).toEqual([{ kind: 'char', char: 'a' }, { kind: 'char', char: '%' }, { kind: 'one' }, { kind: 'any' }]);
    expect(likeTokens('x\\')).toBeNull();
    expect(anchoredLikeTokens('ab')).toEqual([{ kind: 'any' }, { kind: 'char', char: 'a' }, { kind: 'char', char: 'b' }, { kind: 'any' }]);
    expect(anchoredLikeTokens('a%')).toEqual([{ kind: 'char', char: 'a' }, { kind: 'any' }]);
  });

  it('agrees with an independent RegExp translation on random patterns', () => {
    const next = rng(1234);
    const pick = (chars: string[], max: number) =>
      Array.from({ length: Math.floor(next() * max) }, () => chars[Math.floor(next() * chars.length)]).join('');
    const toRegExp = (pattern: string): RegExp => {
      let src = '';
      let wildcard = false;
      const chars = Array.from(pattern.toLowerCase());
      for (let i = 0; i < chars.length; i += 1) {
        const ch = chars[i] as string;
        if (ch === '\\') src += (chars[++i] as string).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        else if (ch === '%') (src += '.*'), (wildcard = true);
        else if (ch === '_') (src += '.'), (wildcard = true);
        else src += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      }
      return new RegExp(wildcard ? `^${src}$` : src, 'su');
    };
    for (let i = 0; i < 2000; i += 1) {
      let pattern = pick(['a', 'B', '%', '_', '\\', '😀', '.'], 6);
      if (likeTokens(pattern) === null) pattern += 'a';
      const value = pick(['a', 'A', 'b', '%', '_', '\\', '😀', '.'], 7);
      expect(likeMatches(pattern, value), `${pattern} ~ ${value}`).toBe(toRegExp(pattern).test(value.toLowerCase()));
    }
  });
});

describe('edit distance', () => {
  const naive = (a: string[], b: string[]): number => {
    if (a.length === 0) return b.length;
    if (b.length === 0) return a.length;
    const cost = a[0] === b[0] ? 0 : 1;
    return Math.min(naive(a.slice(1), b) + 1, naive(a, b.slice(1)) + 1, naive(a.slice(1), b.slice(1)) + cost);
  };
  it('is plain Levenshtein over code points (no transposition)', () => {
    expect(levenshtein('smith', 'smiht')).toBe(2);
    expect(levenshtein('😀a', 'a')).toBe(1);
    expect(levenshtein('', 'abc')).toBe(3);
    const next = rng(99);
    const gen = () => Array.from({ length: Math.floor(next() * 5) }, () => ['a', 'b', 'c', '😀'][Math.floor(next() * 4)]).join('');
    for (let i = 0; i < 300; i += 1) {
      const a = gen();
      const b = gen();
      expect(levenshtein(a, b)).toBe(naive(Array.from(a), Array.from(b)));
    }
  });
  it('AUTO budget by code point length', () => {
    expect([1, 2, 3, 5, 6, 20].map((n) => autoEdits('x'.repeat(n)))).toEqual([0, 0, 1, 1, 2, 2]);
    expect(autoEdits('😀😀😀')).toBe(1);
  });
  it('term quality: exact 1, prefix 0.5, edits 2^-d, else 0', () => {
    expect(fuzzyTermQuality('abc', 'abc')).toBe(1);
    expect(fuzzyTermQuality('ab', 'abcdef')).toBe(0.5);
    expect(fuzzyTermQuality('abd', 'abc')).toBe(0.5);
    expect(fuzzyTermQuality('abcdxx', 'abcdef')).toBe(0.25);
    expect(fuzzyTermQuality('abx', 'xyz')).toBe(0);
  });
});
