import { describe, expect, it } from 'vitest';
import { needsEscaping, textArrayLiteral } from '../../../src/store/text-array-literal.js';

describe('textArrayLiteral', () => {
  it('quotes every element, and escapes quotes and backslashes only', () => {
    expect(textArrayLiteral([])).toBe('{}');
    expect(textArrayLiteral(['a', '', 'NULL', 'b c,{d}'])).toBe('{"a","","NULL","b c,{d}"}');
    expect(textArrayLiteral(['x', 'say "hi"', 'a\\b'])).toBe('{"x","say \\"hi\\"","a\\\\b"}');
  });

  it('takes the escaping path only for lists holding a quote or a backslash, not for its own separators', () => {
    expect(needsEscaping(['cus_1', 'cus_2', 'cus_3'])).toBe(false);
    expect(needsEscaping(['', ''])).toBe(false);
    expect(needsEscaping(['a', 'b"'])).toBe(true);
    expect(needsEscaping(['a\\', 'b'])).toBe(true);
  });
});
