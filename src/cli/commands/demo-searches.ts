/**
 * The searches `syncdex demo` prints: one of each kind an agent sends (exact, boolean with a
 * cursor, typo-tolerant, substring, ranked words, nested arrays, sorted projections), built from
 * the records just synced so that each one finds something.
 */
type Json = Record<string, unknown>;

/** One search to print: its title, entity and params. */
export interface DemoSearch {
  readonly title: string;
  readonly entity: string;
  readonly params: Json;
  /** Fields shown per hit (the hit's `data` holds more). */
  readonly show: readonly string[];
  /** Also fetch and print the next page through `next_cursor`. */
  readonly nextPage?: boolean;
}

/** A word with its middle letter typed twice: one edit, within fuzzy's budget for 3+ letters. */
export function typo(word: string): string {
  const letters = [...word];
  if (letters.length < 3) return word;
  const i = Math.floor(letters.length / 2);
  return [...letters.slice(0, i + 1), ...letters.slice(i)].join('');
}

export function demoSearches(customer: Json, candidate: Json): DemoSearch[] {
  const email = String(customer.email);
  const [first = '', last = ''] = String(customer.name).split(' ');
  const desc = String(customer.description).split(' ').slice(0, 2).join(' ');
  const candidateEmail = ((candidate.email_addresses as Json[] | undefined)?.[0]?.value as string | undefined) ?? '';
  const who = ['name', 'email'];
  return [
    { title: `eq email = ${email}`, entity: 'customers', params: { query: { filter: { eq: { email } } } }, show: who },
    { title: 'and [currency = eur, delinquent = false], limit 3, then the next page', entity: 'customers', params: { query: { filter: { and: [{ eq: { currency: 'eur' } }, { eq: { delinquent: false } }] } }, limit: 3 }, show: ['name', 'currency', 'delinquent'], nextPage: true },
    { title: `fuzzy name "${typo(first)} ${typo(last)}" (typos), ranked`, entity: 'customers', params: { query: { filter: { fuzzy: { name: `${typo(first)} ${typo(last)}` } } }, limit: 3 }, show: who },
    { title: `like email "%${last.toLowerCase().slice(0, 4)}%" (substring)`, entity: 'customers', params: { query: { filter: { like: { email: `%${last.toLowerCase().slice(0, 4)}%` } } }, limit: 3 }, show: who },
    { title: `keyword description "${desc}", ranked by words found`, entity: 'customers', params: { query: { filter: { keyword: { description: desc } } }, limit: 3 }, show: ['description'] },
    { title: `any email_addresses {value = ${candidateEmail}} (candidates, nested array)`, entity: 'candidates', params: { query: { filter: { any: { email_addresses: { eq: { value: candidateEmail } } } } }, limit: 3 }, show: ['first_name', 'last_name', 'email_addresses'] },
    { title: 'sort created desc, fields [name, created], metadata.plan = pro', entity: 'customers', params: { query: { filter: { eq: { 'metadata.plan': 'pro' } }, sort: [{ created: 'desc' }] }, fields: ['name', 'created'], limit: 3 }, show: ['name', 'created'] },
  ];
}
