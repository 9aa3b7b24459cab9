/**
 * Validation of a connector's `replication_config` and `credentials` against its kind (overview
 * §4.1, §5.2, §7 rule 7). Pure: returns the normalized value or throws an `invalid_request` whose
 * `path` names the offending field exactly (`replication_config.account_ids`, `credentials.api_key`).
 */
import { CronExpressionParser } from 'cron-parser';
import { AppError, joinPath } from '../../errors.js';
import { parseIsoInstant } from '../../iso-instant.js';
import type { ConfigFieldSpec, ConnectorDef, CredentialMethod } from './types.js';

/** A validated replication_config: the kind's own fields plus the generic optional ones. */
export interface ReplicationConfig {
  /** Entities to replicate (each a searchable entity of the kind); absent means all. */
  readonly entities?: readonly string[];
  /** Cron (5 fields) or interval (`15m`, `1h`, `1d`). */
  readonly schedule?: string;
  /** Earliest data to replicate, normalized to an ISO 8601 UTC datetime. */
  readonly start_date?: string;
  readonly [field: string]: string | readonly string[] | undefined;
}

/** Validated credentials: the matching method and its fields. */
export interface ValidCredentials {
  readonly method: CredentialMethod['name'];
  readonly value: Readonly<Record<string, string>>;
}

const GENERIC_FIELDS = ['entities', 'schedule', 'start_date'] as const;

function fail(message: string, path: string): never {
  throw new AppError('invalid_request', message, { path });
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validates and normalizes `replication_config` for a kind. */
export function validateReplicationConfig(def: ConnectorDef, input: unknown, basePath = 'replication_config'): ReplicationConfig {
  if (!isPlainObject(input)) return fail(`${basePath} must be an object`, basePath);
  const allowed = [...Object.keys(def.replicationConfig), ...GENERIC_FIELDS];
  for (const key of Object.keys(input)) {
    if (!allowed.includes(key)) {
      fail(`unknown field "${key}" in ${basePath} of ${def.key}; allowed: ${allowed.join(', ')}`, joinPath(basePath, key));
    }
  }
  const out: Record<string, string | readonly string[]> = {};
  for (const [name, spec] of Object.entries(def.replicationConfig)) {
    const path = joinPath(basePath, name);
    const raw = input[name];
    if (raw === undefined || raw === null) {
      if (spec.required) fail(`${name} is required for ${def.key}: ${spec.description}`, path);
      continue;
    }
    out[name] = configField(name, spec, raw, path);
  }
  if (input.entities !== undefined) out.entities = entitiesField(def, input.entities, joinPath(basePath, 'entities'));
  if (input.schedule !== undefined) out.schedule = validateSchedule(input.schedule, joinPath(basePath, 'schedule'));
  if (input.start_date !== undefined) out.start_date = validateStartDate(input.start_date, joinPath(basePath, 'start_date'));
  return out;
}

function configField(name: string, spec: ConfigFieldSpec, raw: unknown, path: string): string | readonly string[] {
  if (spec.type === 'string' && spec.list !== true) {
    if (typeof raw !== 'string' || raw.trim() === '') return fail(`${name} must be a non-empty string`, path);
    const value = raw.trim();
    if (spec.format === 'url' && !isHttpUrl(value)) fail(`${name} must be an absolute http(s) URL`, path);
    return value;
  }
  // Lists: a comma-separated string or an array of strings.
  const items: { value: unknown; path: string }[] = Array.isArray(raw)
    ? raw.map((value, i) => ({ value, path: joinPath(path, i) }))
    : typeof raw === 'string'
      ? raw.split(',').map((value) => ({ value, path }))
      : fail(`${name} must be a string (comma-separated values) or an array of strings`, path);
  const values: string[] = [];
  for (const item of items) {
    if (typeof item.value !== 'string') return fail(`${name} values must be strings`, item.path);
    let v = item.value.trim();
    if (v === '') {
      if (Array.isArray(raw)) fail(`${name} values must be non-empty`, item.path);
      continue; // a stray comma in a string list
    }
    if (spec.stripPrefix !== undefined && v.startsWith(spec.stripPrefix)) v = v.slice(spec.stripPrefix.length);
    if (v === '' || /\s/.test(v)) fail(`${name} has an invalid value "${item.value}"`, item.path);
    if (spec.format === 'url' && !isHttpUrl(v)) fail(`${name} values must be absolute http(s) URLs`, item.path);
    if (!values.includes(v)) values.push(v);
  }
  if (values.length === 0) fail(`${name} must hold at least one value`, path);
  return spec.type === 'string' ? values.join(',') : values;
}

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function entitiesField(def: ConnectorDef, raw: unknown, path: string): readonly string[] {
  const searchable = Object.values(def.entities)
    .filter((e) => e.actions.includes('search'))
    .map((e) => e.name);
  if (!Array.isArray(raw) || raw.length === 0) return fail('entities must be a non-empty array of entity names', path);
  const out: string[] = [];
  raw.forEach((name, i) => {
    const p = joinPath(path, i);
    if (typeof name !== 'string') fail('entity names must be strings', p);
    if (!searchable.includes(name)) {
      fail(
        searchable.length === 0
          ? `${def.key} has no searchable entities to replicate`
          : `"${String(name)}" is not a searchable entity of ${def.key}; expected one of: ${searchable.join(', ')}`,
        p,
      );
    }
    if (!out.includes(name)) out.push(name);
  });
  return out;
}

/** Cron fields: name, range, and the names a field accepts in place of numbers. */
const CRON_FIELDS: readonly { name: string; min: number; max: number; names?: readonly string[] }[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { name: 'day of week', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

/** A schedule: an interval (`15m`, `1h`, `1d`) or a 5-field cron expression; returned normalized. */
export function validateSchedule(raw: unknown, path = 'replication_config.schedule'): string {
  const hint = 'expected an interval like 15m, 1h, 1d or a 5-field cron expression like "*/15 * * * *"';
  if (typeof raw !== 'string' || raw.trim() === '') return fail(`schedule must be a non-empty string; ${hint}`, path);
  const text = raw.trim().toLowerCase();
  const interval = /^(\d+)([mhd])$/.exec(text);
  if (interval !== null) {
    const n = Number(interval[1]);
    const unit = interval[2] ?? '';
    if (n < 1) fail(`schedule interval must be at least 1${unit}`, path);
    // A year at most: a longer interval is a mistake, and huge numbers stop being integers.
    const perYear = unit === 'm' ? 525_600 : unit === 'h' ? 8_760 : 365;
    if (n > perYear) fail(`schedule interval must be at most 365 days (${perYear}${unit})`, path);
    return `${n}${unit}`;
  }
  const parts = text.split(/\s+/);
  if (parts.length !== 5) return fail(`schedule "${raw}" is neither an interval nor a cron expression of 5 fields; ${hint}`, path);
  parts.forEach((part, i) => {
    const field = CRON_FIELDS[i];
    if (field !== undefined && !cronFieldOk(part, field)) {
      fail(`schedule "${raw}": invalid ${field.name} field "${part}" (allowed ${field.min}-${field.max}, *, lists, ranges, steps)`, path);
    }
  });
  const expr = parts.join(' ');
  const never = neverFires(expr);
  if (never !== null) fail(`schedule "${raw}" never fires: no date matches its day of month and month (${never})`, path);
  return expr;
}

/**
 * Why a well-formed cron expression has no next date (`0 0 30 2 *`), or null. Asked of the parser
 * BullMQ schedules with, so whatever passes here also schedules there.
 */
function neverFires(expr: string): string | null {
  try {
    CronExpressionParser.parse(expr).next();
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

function cronFieldOk(part: string, field: (typeof CRON_FIELDS)[number]): boolean {
  const value = (v: string): number | undefined => {
    const byName = field.names?.indexOf(v) ?? -1;
    if (byName >= 0) return byName + field.min;
    if (!/^\d+$/.test(v)) return undefined;
    const n = Number(v);
    return n >= field.min && n <= field.max ? n : undefined;
  };
  return part.split(',').every((item) => {
    const [range, step, extra] = item.split('/');
    if (extra !== undefined || range === undefined || range === '') return false;
    if (step !== undefined && (!/^\d+$/.test(step) || Number(step) < 1)) return false;
    if (range === '*') return true;
    const [lo, hi, more] = range.split('-');
    if (more !== undefined || lo === undefined) return false;
    const a = value(lo);
    if (a === undefined) return false;
    if (hi === undefined) return true;
    const b = value(hi);
    return b !== undefined && a <= b;
  });
}

/**
 * An ISO 8601 date (`2024-01-31`) or datetime (`2024-01-31T08:00:00Z`, offsets allowed); a
 * datetime without an offset is taken as UTC. Returned as an ISO UTC datetime.
 */
export function validateStartDate(raw: unknown, path = 'replication_config.start_date'): string {
  const hint = 'expected an ISO 8601 date (2024-01-31) or datetime (2024-01-31T08:00:00Z)';
  if (typeof raw !== 'string') return fail(`start_date must be a string; ${hint}`, path);
  const parsed = parseIsoInstant(raw);
  if (parsed === 'not_iso') return fail(`start_date "${raw}" is not ISO 8601; ${hint}`, path);
  if (parsed === 'not_real') return fail(`start_date "${raw}" is not a real date/time`, path);
  return parsed.toISOString();
}

const describe = (m: CredentialMethod): string => {
  const req = Object.entries(m.fields).filter(([, f]) => f.required).map(([k]) => k);
  const opt = Object.entries(m.fields).filter(([, f]) => !f.required).map(([k]) => k);
  return `${m.name} (${req.join(', ')} required${opt.length > 0 ? `; ${opt.join(', ')} optional` : ''})`;
};

/**
 * Validates `credentials` against the kind's methods: the keys must fit exactly one method and
 * carry its required fields; every value must be a non-empty string (returned trimmed).
 */
export function validateCredentials(def: ConnectorDef, input: unknown, basePath = 'credentials'): ValidCredentials {
  if (!isPlainObject(input)) return fail(`${basePath} must be an object`, basePath);
  const keys = Object.keys(input);
  const methods = def.credentialMethods;
  const unavailable = def.unavailableMethods ?? [];
  const note = unavailable.length === 0 ? '' : ` (the ${unavailable.map(title).join(' and ')} method is unavailable for the ${def.title.toLowerCase()} connector)`;
  const expected = `expected ${methods.map(describe).join(' or ')}`;
  const fits = (m: CredentialMethod) =>
    keys.every((k) => Object.hasOwn(m.fields, k)) && Object.entries(m.fields).every(([k, f]) => !f.required || Object.hasOwn(input, k));
  const matches = methods.filter(fits);
  if (matches.length > 1) fail(`${basePath} match more than one method (${matches.map((m) => m.name).join(', ')}); ${expected}`, basePath);
  const method = matches[0];
  if (method === undefined) {
    // A key no available method knows: on a kind with an unavailable method, that is its use.
    const stray = keys.find((k) => !methods.some((m) => Object.hasOwn(m.fields, k)));
    if (stray !== undefined && unavailable.includes('token')) {
      fail(`The Token method is unavailable for the ${def.title.toLowerCase()} connector; ${expected}`, joinPath(basePath, stray));
    }
    const best = [...methods].sort((a, b) => score(b, keys) - score(a, keys))[0];
    if (best === undefined) return fail(`${def.key} accepts no credentials${note}`, basePath);
    const unknown = keys.find((k) => !Object.hasOwn(best.fields, k));
    if (unknown !== undefined) fail(`unknown credential field "${unknown}" for the ${best.name} method; ${expected}${note}`, joinPath(basePath, unknown));
    const missing = Object.entries(best.fields).find(([k, f]) => f.required && !Object.hasOwn(input, k))?.[0] ?? '';
    return fail(`${missing} is required for the ${best.name} method; ${expected}${note}`, joinPath(basePath, missing));
  }
  const value: Record<string, string> = {};
  for (const k of keys) {
    const v = input[k];
    if (typeof v !== 'string' || v.trim() === '') fail(`${k} must be a non-empty string`, joinPath(basePath, k));
    value[k] = v.trim();
  }
  return { method: method.name, value };
}

const score = (m: CredentialMethod, keys: readonly string[]): number => keys.filter((k) => Object.hasOwn(m.fields, k)).length;
const title = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);
