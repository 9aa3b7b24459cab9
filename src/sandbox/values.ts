/** Value generators for single fields: formats, person-like fields, times, plain scalars. */
import type { FieldSpec, FieldType } from '../connectors/catalog/types.js';
import type { Rng } from './prng.js';
import * as w from './words.js';

export type TimeFormat = 'unix' | 'iso_datetime' | 'date';

/** One made-up person per object, so its name, first/last name and email agree. */
export interface Persona {
  readonly first: string;
  readonly last: string;
  /** Makes emails unique within a dataset. */
  readonly n: number;
}

/** Field names that hold times when the catalog gives no format (`created_time`, `updatedAt`, `due_on`). */
const TIME_NAME = /(^|_)(at|time|timestamp|date|on|since)$|[a-z](At|Time|Date|Timestamp|On)$|^(created|updated|scheduled|started|timestamp)$/;
const DATE_NAME = /(_on|Date|_date)$/;

/** The time encoding of a field: its format, else guessed from its name and type; `force` for known time fields. */
export function timeFormatOf(name: string, spec: FieldSpec, force = false): TimeFormat | undefined {
  if (spec.format === 'unix' || spec.format === 'iso_datetime' || spec.format === 'date') return spec.format;
  if (spec.format !== undefined || spec.enum !== undefined || spec.const !== undefined) return undefined;
  if (!force && !TIME_NAME.test(name)) return undefined;
  if (spec.type === 'int' || spec.type === 'number') return 'unix';
  if (spec.type !== 'string') return undefined;
  return DATE_NAME.test(name) ? 'date' : 'iso_datetime';
}

export function timeValue(format: TimeFormat, sec: number): string | number {
  if (format === 'unix') return sec;
  const iso = new Date(sec * 1000).toISOString();
  return format === 'date' ? iso.slice(0, 10) : iso;
}

/** Lower-case ASCII for email local parts (`Zoë Müller` → `zoe.muller`). */
const ascii = (s: string): string => s.replace(/ø/g, 'o').normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z]/g, '');

/** Person-like names the catalog leaves unformatted. */
const PERSON_NAMES: Record<string, string> = {
  first_name: 'first_name', firstName: 'first_name',
  last_name: 'last_name', lastName: 'last_name',
  email: 'email', emailAddress: 'email', email_address: 'email',
  display_name: 'name', displayName: 'name', real_name: 'name', full_name: 'name', individual_name: 'name',
};

function personValue(kind: string, who: Persona): string | undefined {
  switch (kind) {
    case 'email': return `${ascii(who.first)}.${ascii(who.last)}${who.n}@example.com`;
    case 'name': return `${who.first} ${who.last}`;
    case 'first_name': return who.first;
    case 'last_name': return who.last;
    default: return undefined;
  }
}

function formatValue(format: string, rng: Rng): string | undefined {
  switch (format) {
    case 'company': return `${rng.pick(w.COMPANY_WORDS)} ${rng.pick(w.COMPANY_SUFFIXES)}`;
    case 'title': return `${rng.pick(w.TEXT_WORDS)} ${rng.pick(w.TEXT_WORDS)}`;
    case 'text': return Array.from({ length: rng.int(2, 7) }, () => rng.pick(w.TEXT_WORDS)).join(' ');
    case 'url': return `https://example.com/${rng.pick(w.TEXT_WORDS)}/${rng.int(1, 99_999)}`;
    case 'phone': return `+1-555-${String(rng.int(0, 9999)).padStart(4, '0')}`;
    case 'currency': return rng.pick(w.CURRENCIES);
    case 'country': return rng.pick(w.COUNTRIES);
    case 'timezone': return rng.pick(w.TIMEZONES);
    case 'color': return rng.pick(w.COLORS);
    case 'ip': return `10.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
    case 'id': return `id_${rng.int(1, 1_000_000).toString(36)}`;
    default: return undefined;
  }
}

/** A string for a formatted or person-like field; undefined when neither applies. */
export function formatted(name: string, spec: FieldSpec, rng: Rng, who: Persona): string | undefined {
  if (spec.type !== 'string') return undefined;
  const person = spec.format ?? (Object.hasOwn(PERSON_NAMES, name) ? PERSON_NAMES[name] : undefined);
  if (person !== undefined) {
    const v = personValue(person, who);
    if (v !== undefined) return v;
  }
  return spec.format === undefined ? undefined : formatValue(spec.format, rng);
}

export function scalar(type: FieldType, rng: Rng): unknown {
  switch (type) {
    case 'int': return rng.int(0, 100_000);
    case 'number': return Math.round(rng.next() * 1_000_000) / 100;
    case 'boolean': return rng.chance(0.5);
    case 'object': return { note: rng.pick(w.TEXT_WORDS) };
    case 'array': return [];
    default: return `${rng.pick(w.TEXT_WORDS)}-${rng.int(1, 999)}`;
  }
}
