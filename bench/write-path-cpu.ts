/**
 * The CPU a record's pure write-path work takes in one process with nothing else around it: the
 * page's JSON decoded and parsed as the runtime client does it, then what the page reader and
 * writer derive before Postgres sees the page (each record's bytes cut from the page, its content
 * hash, lookup keys, shadow, search text, words and their hashes and vocabulary, the upsert
 * payload). The worker does this and more (HTTP, queue,
 * SQL round trips, GC): it is the floor the worker's own CPU per record cannot go under with the
 * structures the Postgres backend writes.
 */
import { hash } from 'node:crypto';
import { getConnectorDef, getEntityDef } from '../src/connectors/catalog/index.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import { lookupFields } from '../src/search/target.js';
import { upsertPayload } from '../src/store/records-repo.js';
import { indexWords, rememberWords } from '../src/store/page-words.js';
import { prepareRecords, withShadows } from '../src/worker/page-writer.js';
import { toPageRecords } from '../src/worker/page-records.js';
import { createLogger } from '../src/logger.js';
import { bestCpuPerItem } from './lib/cpu-share.js';
import { searchableStrings } from './lib/searchable-strings.js';

const PAGE = 100;
const logger = createLogger('warn');

/** CPU microseconds per record, per step and in all (the best of `rounds` passes over the first `n` customers). */
export function writePathCpu(sandbox: Sandbox, n: number, rounds = 3): { total: number; steps: Record<string, number> } {
  const def = getEntityDef(getConnectorDef('payments'), 'customers');
  const ds = sandbox.dataset('payments', 'customers');
  const bodies: Buffer[] = [];
  for (let i = 0; i < n; i += PAGE) bodies.push(Buffer.from(JSON.stringify({ data: Array.from({ length: Math.min(PAGE, n - i) }, (_, k) => ds.recordAt(i + k)), meta: { next_cursor: `c${i}` } })));
  const best: Record<string, number> = { parse: Infinity, derive: Infinity, words: Infinity, payload: Infinity };
  for (let round = 0; round < rounds; round++) {
    const spent: Record<string, number> = { parse: 0, derive: 0, words: 0, payload: 0 };
    const step = <T>(name: string, fn: () => T): T => {
      const before = process.cpuUsage();
      const out = fn();
      const used = process.cpuUsage(before);
      spent[name] = (spent[name] ?? 0) + used.user + used.system;
      return out;
    };
    for (const body of bodies) {
      const page = step('parse', () => ({ ...(JSON.parse(body.toString()) as { data: Record<string, unknown>[]; meta: Record<string, unknown> }), body }));
      // As the page's reader and writer do: each record's bytes cut from the page, hashed, derived.
      const records = step('derive', () => withShadows(prepareRecords(toPageRecords(def, page, page.data, logger)), def.searchable, lookupFields(def)));
      // A tenant per round: every round meets first-seen words as a first sync does, and
      // remembers them page by page as the page writer does once a page commits.
      const tenant = `floor-${round}-${process.pid}`;
      const indexed = step('words', () => {
        const out = indexWords(tenant, 'customers', records);
        rememberWords(tenant, 'customers', out.fresh);
        return out;
      });
      step('payload', () => upsertPayload(records, indexed.words));
    }
    for (const k of Object.keys(best)) best[k] = Math.min(best[k] as number, (spent[k] as number) / n);
  }
  return { total: Object.values(best).reduce((a, b) => a + b, 0), steps: best };
}

/** The searchable strings of a value, in document order: the least walk that finds them. */
function stringsOf(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (typeof value === 'object' && value !== null) for (const k in value) stringsOf((value as Record<string, unknown>)[k], out);
}

/** What both least derivations do once a record's searchable strings are found: lower-cased, read once with a running hash, serialized with the content hash. */
function leastRow(strings: readonly string[], bytes: Uint8Array): number {
  const text = strings.map((x) => x.toLowerCase()).join('\n');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `{"hash":"${hash('sha1', bytes)}","text":${JSON.stringify(text)},"w":${h | 0}}`.length;
}

/** The first `n` customers as their bytes, and the entity's searchable fields. */
function customerBytes(sandbox: Sandbox, n: number): { fields: string[]; bytes: Buffer[] } {
  const def = getEntityDef(getConnectorDef('payments'), 'customers');
  const ds = sandbox.dataset('payments', 'customers');
  return { fields: Object.keys(def.searchable ?? {}), bytes: Array.from({ length: n }, (_, i) => Buffer.from(JSON.stringify(ds.recordAt(i)))) };
}

/**
 * CPU microseconds per record of the least derivation any JavaScript worker writing these
 * structures does, whatever its code: the sha1 of the record's bytes as the runtime sent them
 * (its content hash; the statement's document is those bytes), every searchable string found and
 * lower-cased (the trigram text), every character of them read once with a running hash (the
 * words), and the text serialized into the statement. No paths, vocabulary, keys or shadows:
 * those cost more on top. Best of `rounds` passes over the first `n` customers, parsed beforehand.
 */
export function leastDerivationCpu(sandbox: Sandbox, n: number, rounds = 3): number {
  const { fields, bytes } = customerBytes(sandbox, n);
  const records = bytes.map((b) => ({ r: JSON.parse(b.toString()) as Record<string, unknown>, bytes: b }));
  return bestCpuPerItem(records, rounds, ({ r, bytes }) => {
    const strings: string[] = [];
    for (const f of fields) stringsOf(r[f], strings);
    return leastRow(strings, bytes);
  });
}

/**
 * The same least derivation for a worker that never parses its pages, from each record's bytes
 * as the runtime sent them: decoded once, its searchable strings found by one pass over the text
 * (lib/searchable-strings.ts), then as {@link leastDerivationCpu}. Under any worker at all, the
 * transport floor plus this. Throws when the scan finds other strings than the parsed walk.
 */
export function leastByteDerivationCpu(sandbox: Sandbox, n: number, rounds = 3): number {
  const { fields, bytes } = customerBytes(sandbox, n);
  const named = new Set(fields);
  for (const b of bytes.slice(0, 1000)) {
    const text = b.toString();
    const walked: string[] = [];
    const r = JSON.parse(text) as Record<string, unknown>;
    for (const f of fields) stringsOf(r[f], walked);
    const scanned = searchableStrings(text, named);
    if (walked.sort().join('\u0000') !== scanned.sort().join('\u0000')) throw new Error(`the byte-level scan found other strings than the parsed walk in ${text.slice(0, 80)}…`);
  }
  return bestCpuPerItem(bytes, rounds, (b) => leastRow(searchableStrings(b.toString(), named), b));
}
