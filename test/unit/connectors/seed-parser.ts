/**
 * Parser of the entity reference (seed 001) for the catalog tests: part-4 action tables and
 * part-2 searchable statements. Expectations come from the text, not from the catalog.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ActionName, FieldType } from '../../../src/connectors/catalog/types.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SEED_FILE = '001_abfefe7d930161fe.txt';
// The shared seeds are authoritative when the checkout sits beside them; a clean clone elsewhere
// (CI) reads the copy kept in docs/source, which must then be refreshed when the seeds change.
const SHARED = path.resolve(repoRoot, '../shared/seeds', SEED_FILE);
export const SEED_PATH = existsSync(SHARED) ? SHARED : path.resolve(repoRoot, 'docs/source', SEED_FILE);

/** The seed text; a missing seed is a failure, never a skip. */
export function readSeed(): string {
  if (!existsSync(SEED_PATH)) {
    throw new Error(`entity reference seed not found at ${SEED_PATH}: the catalog tests need it (../shared/seeds or docs/source)`);
  }
  return readFileSync(SEED_PATH, 'utf8');
}

const TYPES = ['string', 'int', 'number', 'boolean', 'object', 'array'] as const;
const ACTIONS: readonly ActionName[] = ['list', 'get', 'create', 'update', 'delete', 'api_search', 'search', 'download'];
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Section titles map to neutral keys by snake-casing; the one title that differs is aliased. */
function kindKey(title: string): string {
  const key = title.toLowerCase().replace(/[- ]+/g, '_');
  return key === 'email_campaign' ? 'email_campaigns' : key; // "Email-campaign connector" → plural key
}

export interface Section {
  readonly part: number;
  readonly kind: string;
  readonly lines: string[];
}

/** Splits the seed into `### n.m <Kind> connector` sections of parts 2 and 4. */
export function sections(text: string): Section[] {
  const out: Section[] = [];
  let part = 0;
  let current: Section | undefined;
  for (const line of text.split('\n')) {
    const partHead = /^## (\d+)\./.exec(line);
    if (partHead !== null) {
      part = Number(partHead[1]);
      current = undefined;
      continue;
    }
    const head = /^### \d+\.\d+[a-z]? (.+?) connector\b/.exec(line);
    if (head !== null) {
      current = { part, kind: kindKey(head[1] ?? ''), lines: [] };
      out.push(current);
      continue;
    }
    current?.lines.push(line);
  }
  return out;
}

/**
 * Part-4 table rows → kind → entity → actions. A row may name several entities. One row of the
 * work-management table ends with "workspace_tasks-style nested lists": a description of the kind
 * of entity listed, not an entity name (the nested lists themselves are named in later rows), so
 * it is dropped explicitly; any other token that is not an entity name fails the parse.
 */
export const IRREGULAR_TOKENS = ['workspace_tasks-style nested lists'] as const;

export function parseActionTables(text: string, dropped: string[] = []): Map<string, Map<string, ActionName[]>> {
  const out = new Map<string, Map<string, ActionName[]>>();
  for (const s of sections(text).filter((x) => x.part === 4)) {
    const entities = new Map<string, ActionName[]>();
    out.set(s.kind, entities);
    for (const line of s.lines) {
      const row = /^\|([^|]+)\|([^|]+)\|$/.exec(line.trim());
      if (row === null) continue;
      const [left, right] = [row[1]?.trim() ?? '', row[2]?.trim() ?? ''];
      if (left === 'Entity' || /^-+$/.test(left)) continue;
      const actions = right.split(',').map((a) => a.trim());
      for (const a of actions) if (!ACTIONS.includes(a as ActionName)) throw new Error(`${s.kind}: unknown action "${a}" in row "${line}"`);
      for (const token of left.split(',').map((t) => t.trim())) {
        if ((IRREGULAR_TOKENS as readonly string[]).includes(token)) {
          dropped.push(`${s.kind}: ${token}`);
          continue;
        }
        if (!/^[a-z][a-z0-9_]*$/.test(token)) throw new Error(`${s.kind}: cannot read entity "${token}" in row "${line}"`);
        if (entities.has(token)) throw new Error(`${s.kind}: entity ${token} listed twice`);
        entities.set(token, actions as ActionName[]);
      }
    }
  }
  return out;
}

/**
 * One group of a searchable statement, in any of the reference's phrasings:
 * `a, b (string)`, `int: a, b` (also plural `ints:`), `a, b string`, `a int`.
 */
export function parseGroups(body: string): Record<string, FieldType> {
  const types = TYPES.join('|');
  const cleaned = body
    .replace(/\.\s+[A-Z][\s\S]*$/, '') // trailing prose ("Amounts are in the smallest currency unit.")
    .replace(/\.\s*$/, '')
    .replace(new RegExp(`\\s*\\((?!(?:${types})\\))[^)]*\\)`, 'g'), ''); // notes like "(seconds)"
  const out: Record<string, FieldType> = {};
  for (const raw of cleaned.split(';')) {
    const g = raw.trim();
    if (g === '') continue;
    const m =
      new RegExp(`^(${types})s?:\\s*(.+)$`).exec(g) ??
      swap(new RegExp(`^(.+?)\\s*\\((${types})\\)$`).exec(g)) ??
      swap(new RegExp(`^(.+?)\\s+(${types})$`).exec(g));
    if (m === null) throw new Error(`cannot parse searchable group "${g}"`);
    for (const name of m[2].split(',').map((n) => n.trim())) {
      if (!NAME_RE.test(name)) throw new Error(`bad field name "${name}" in group "${g}"`);
      out[name] = m[1] as FieldType;
    }
  }
  return out;
}

/** `[all, names, type]` → `[all, type, names]` so every form yields (type, names). */
function swap(m: RegExpExecArray | null): [string, string, string] | null {
  return m === null ? null : [m[0], m[2] ?? '', m[1] ?? ''];
}

/** Record fields of one `- \`entity\`: ...` line, typed (`string?` → string, `object|any` → object). */
export function parseRecordLine(line: string): Record<string, FieldType> {
  const body = line.replace(/^- `[a-z_]+`:\s*/, '').split(/\.\s+(?:Meta|Paging|Searchable)\b/)[0] ?? '';
  return parseGroups(body.replace(/\|any/g, '').replace(/\?/g, ''));
}

export interface SearchableStatement {
  readonly kind: string;
  readonly entity: string;
  /** Text after `searchable:`. */
  readonly body: string;
  /** The line holding the statement (record fields precede it on inline statements). */
  readonly line: string;
  /** `searchable shown:` — the seed itself says more fields exist. */
  readonly shownOnly: boolean;
}

/** Every part-2 searchable statement, one per entity (multi-entity statements are split). */
export function searchableStatements(text: string): SearchableStatement[] {
  const out: SearchableStatement[] = [];
  for (const s of sections(text).filter((x) => x.part === 2)) {
    for (const line of s.lines) {
      const m = /\bsearchable( shown)?:\s*(.*)$/i.exec(line);
      if (m === null || !line.startsWith('- ')) continue;
      const body = m[2] ?? '';
      const entity = /^- `([a-z_]+)`/.exec(line)?.[1];
      if (entity !== undefined) {
        out.push({ kind: s.kind, entity, body, line, shownOnly: m[1] !== undefined });
        continue;
      }
      // "- Searchable: profiles: ...; ... string. lists and metrics: ..." (email marketing).
      for (const chunk of body.split(/\.\s+/)) {
        const head = /^([a-z_]+(?:(?:,\s*|\s+and\s+)[a-z_]+)*):\s*(.+)$/.exec(chunk.trim());
        if (head === null) throw new Error(`${s.kind}: cannot read multi-entity statement "${chunk}"`);
        for (const e of (head[1] ?? '').split(/,\s*|\s+and\s+/)) out.push({ kind: s.kind, entity: e, body: head[2] ?? '', line, shownOnly: false });
      }
    }
  }
  return out;
}

/** The `- \`entity\`: ...` record line of an entity in a part-2 section. */
export function recordLine(text: string, kind: string, entity: string): string {
  const s = sections(text).find((x) => x.part === 2 && x.kind === kind);
  const line = s?.lines.find((l) => l.startsWith(`- \`${entity}\`: `));
  if (line === undefined) throw new Error(`no record line for ${kind}.${entity}`);
  return line;
}
