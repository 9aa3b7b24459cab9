/**
 * Just enough of the issue tracker's query language to apply overview §7 rule 1: a query is
 * bounded when every alternative (OR branch) restricts by project, assignee, reporter, issue key
 * or sprint. Dates alone, ordering alone, negations and empty queries are unbounded.
 */

const RESTRICTING = new Set(['project', 'assignee', 'reporter', 'key', 'issuekey', 'issue', 'id', 'sprint', 'parent']);
const POSITIVE_OPS = new Set(['=', 'in']);

/** Words, quoted strings, parentheses, commas and comparison operators; null when some text is none of these (an unterminated quote). */
function tokenize(jql: string): string[] | null {
  const re = /\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[(),]|!=|>=|<=|!~|[=<>~]|[^\s(),=<>!~"']+)/gy;
  const out: string[] = [];
  let end = 0;
  for (let m = re.exec(jql); m !== null && m[1] !== undefined; m = re.exec(jql)) {
    out.push(m[1]);
    end = re.lastIndex;
  }
  return jql.slice(end).trim() === '' ? out : null;
}

/** Drops a trailing `ORDER BY ...` (outside quotes). */
function withoutOrderBy(tokens: string[]): string[] {
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (tokens[i]?.toLowerCase() === 'order' && tokens[i + 1]?.toLowerCase() === 'by') return tokens.slice(0, i);
  }
  return tokens;
}

class Parser {
  private i = 0;
  constructor(private readonly t: string[]) {}

  private peek(): string | undefined {
    return this.t[this.i]?.toLowerCase();
  }

  /** or := and (OR and)* — bounded when every branch is. */
  or(): boolean {
    let bounded = this.and();
    while (this.peek() === 'or') {
      this.i++;
      bounded = this.and() && bounded;
    }
    return bounded;
  }

  /** and := unary (AND unary)* — bounded when any part is. */
  private and(): boolean {
    let bounded = this.unary();
    while (this.peek() === 'and') {
      this.i++;
      bounded = this.unary() || bounded;
    }
    return bounded;
  }

  private unary(): boolean {
    const tok = this.peek();
    if (tok === 'not') {
      this.i++;
      this.unary();
      return false;
    }
    if (tok === '(') {
      this.i++;
      const inner = this.or();
      if (this.peek() === ')') this.i++;
      return inner;
    }
    return this.clause();
  }

  /** field op value — or `field in (a, b)`; consumes up to the next AND/OR/closing parenthesis. */
  private clause(): boolean {
    const field = this.t[this.i++]?.toLowerCase().replace(/^"|"$/g, '') ?? '';
    const op = this.peek() ?? '';
    let depth = 0;
    while (this.i < this.t.length) {
      const tok = this.peek();
      if (depth === 0 && (tok === 'and' || tok === 'or' || tok === ')')) break;
      if (tok === '(') depth++;
      if (tok === ')') depth--;
      this.i++;
    }
    return RESTRICTING.has(field) && POSITIVE_OPS.has(op);
  }
}

/** Whether a JQL query is bounded in the sense of overview §7 rule 1 (a query that does not parse is not). */
export function isBoundedJql(jql: string): boolean {
  const all = tokenize(jql);
  if (all === null) return false;
  const tokens = withoutOrderBy(all);
  if (tokens.length === 0) return false;
  return new Parser(tokens).or();
}
