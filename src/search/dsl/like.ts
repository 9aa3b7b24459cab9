/**
 * `like` patterns (DESIGN §6): `%` any run (possibly empty), `_` exactly one character (one
 * Unicode code point, as Postgres ILIKE on UTF-8 text), `\` makes the next character literal.
 * A pattern without an unescaped `%` or `_` is a substring match, i.e. behaves as `%pattern%`.
 * A pattern ending in a lone `\` is invalid (Postgres rejects it too).
 */

export type LikeToken =
  | { readonly kind: 'any' }
  | { readonly kind: 'one' }
  | { readonly kind: 'char'; readonly char: string };

/** Tokens of a pattern (characters are code points), or null when it ends with a lone `\`. */
export function likeTokens(pattern: string): LikeToken[] | null {
  const chars = Array.from(pattern);
  const tokens: LikeToken[] = [];
  for (let i = 0; i < chars.length; i += 1) {
    const ch = chars[i] as string;
    if (ch === '\\') {
      const next = chars[i + 1];
      if (next === undefined) return null;
      tokens.push({ kind: 'char', char: next });
      i += 1;
    } else if (ch === '%') tokens.push({ kind: 'any' });
    else if (ch === '_') tokens.push({ kind: 'one' });
    else tokens.push({ kind: 'char', char: ch });
  }
  return tokens;
}

/** True when the tokens hold a wildcard; otherwise the pattern is a substring match. */
export function hasWildcard(tokens: readonly LikeToken[]): boolean {
  return tokens.some((t) => t.kind !== 'char');
}

/**
 * The anchored token list a pattern means: wildcard patterns as written, wildcard-free ones
 * wrapped in `%…%` (substring). Compilers can translate these tokens one by one.
 */
export function anchoredLikeTokens(pattern: string): LikeToken[] | null {
  const tokens = likeTokens(pattern);
  if (tokens === null || hasWildcard(tokens)) return tokens;
  return [{ kind: 'any' }, ...tokens, { kind: 'any' }];
}
