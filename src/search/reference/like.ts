/**
 * `like` matching of the reference evaluator: both sides lower-cased with String#toLowerCase,
 * then matched code point by code point against the anchored tokens of the pattern (see
 * `dsl/like.ts`: `%` any run, `_` exactly one code point, `\` escapes, no wildcard = substring).
 */
import { anchoredLikeTokens, type LikeToken } from '../dsl/like.js';

/** True when `value` matches `pattern` (case-insensitive). Invalid patterns match nothing. */
export function likeMatches(pattern: string, value: string): boolean {
  const tokens = anchoredLikeTokens(pattern.toLowerCase());
  if (tokens === null) return false;
  return matchTokens(tokens, Array.from(value.toLowerCase()));
}

/**
 * Classic dynamic programming: `ok[j]` = "the tokens seen so far match the first j chars".
 */
function matchTokens(tokens: readonly LikeToken[], chars: readonly string[]): boolean {
  let ok: boolean[] = chars.map(() => false);
  ok = [true, ...ok];
  for (const token of tokens) {
    const next: boolean[] = ok.map(() => false);
    for (let j = 0; j <= chars.length; j += 1) {
      if (token.kind === 'any') next[j] = ok[j] === true || (j > 0 && next[j - 1] === true);
      else if (j > 0 && ok[j - 1] === true) next[j] = token.kind === 'one' || token.char === chars[j - 1];
    }
    ok = next;
  }
  return ok[chars.length] === true;
}
