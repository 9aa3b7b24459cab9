import { describe, expect, it } from 'vitest';
import { textArrayLiteral } from '../../../src/store/text-array-literal.js';

describe('textArrayLiteral', () => {
  it('quotes every element, and escapes quotes and backslashes only', () => {
    expect(textArrayLiteral([])).toBe('{}');
    expect(textArrayLiteral(['a', '', 'NULL', 'b c,{d}'])).toBe('{"a","","NULL","b c,{d}"}');
    expect(textArrayLiteral(['x', 'say "hi"', 'a\\b'])).toBe('{"x","say \\"hi\\"","a\\\\b"}');
  });
});
