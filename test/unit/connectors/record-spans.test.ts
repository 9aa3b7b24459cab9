/**
 * Record spans: the bytes the worker stores for a record must be that record, whatever the
 * runtime's spacing, escapes or key order; where the bytes cannot tell, no spans at all.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getConnectorDef, getEntityDef } from '../../../src/connectors/catalog/index.js';
import type { EntityDef } from '../../../src/connectors/catalog/types.js';
import { recordSpans, recordsOf } from '../../../src/connectors/planner.js';
import { pageSpans } from '../../../src/connectors/record-spans.js';

const customers = getEntityDef(getConnectorDef('payments'), 'customers');
const listAt = (recordsPath: string): EntityDef => ({ ...customers, read: { ...customers.read!, recordsPath } });
const getter: EntityDef = { ...customers, read: { ...customers.read!, action: 'get' } };

/** JSON text of `value` with random spacing around every token, and some characters escaped as \u sequences. */
function spaced(value: unknown, space: () => string, escape: () => boolean): string {
  const str = (s: string): string => JSON.stringify(s).replace(/[^\x00-\x7f]|[a-z]/g, (c) => (escape() ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c));
  if (Array.isArray(value)) return `[${space()}${value.map((v) => spaced(v, space, escape)).join(`${space()},${space()}`)}${space()}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${space()}${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}${space()}:${space()}${spaced(v, space, escape)}`).join(`${space()},${space()}`)}${space()}}`;
  }
  return typeof value === 'string' ? str(value) : JSON.stringify(value);
}

const spacing = fc.array(fc.constantFrom('', ' ', '\n', '\t', '\r\n  '), { minLength: 64, maxLength: 64 });
const page = fc.record({ data: fc.array(fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()), { maxLength: 8 }), meta: fc.dictionary(fc.string(), fc.jsonValue()) });

function cutter(spaces: readonly string[], escapes: readonly boolean[]): { space: () => string; escape: () => boolean } {
  let i = 0;
  let j = 0;
  return { space: () => spaces[i++ % spaces.length] as string, escape: () => escapes[j++ % escapes.length] as boolean };
}

describe('recordSpans', () => {
  it('cuts every record of a page at exactly its own bytes, however the page is spaced and escaped', () => {
    fc.assert(
      fc.property(page, spacing, fc.array(fc.boolean(), { minLength: 1, maxLength: 32 }), (p, spaces, escapes) => {
        const { space, escape } = cutter(spaces, escapes);
        const body = Buffer.from(spaced(p, space, escape));
        const parsed = JSON.parse(body.toString()) as { data: unknown };
        const records = recordsOf(customers, parsed.data);
        const spans = recordSpans(customers, parsed.data, body);
        expect(spans).not.toBeNull();
        expect(spans!.map((s) => JSON.parse(body.subarray(s.start, s.end).toString()))).toEqual(records);
      }),
      { numRuns: 1000 },
    );
  });

  it('cuts records at their bytes wherever the page lies in its buffer, with quotes and backslashes at every offset within a word', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ id: fc.string(), s: fc.stringMatching(/^[a-z"\\\\/é]{0,12}$/) }), { maxLength: 6 }), fc.nat(7), (records, offset) => {
        // A page inside a larger buffer (a pooled one, say): its bytes start at any offset.
        const text = JSON.stringify({ data: records, meta: {} });
        const pool = Buffer.alloc(offset + Buffer.byteLength(text) + 5, 0x22);
        const body = pool.subarray(offset, offset + pool.write(text, offset));
        const spans = recordSpans(customers, records, body);
        expect(spans!.map((s) => JSON.parse(body.subarray(s.start, s.end).toString()))).toEqual(records);
      }),
      { numRuns: 1000 },
    );
  });

  it('follows a records path, and the last of duplicate keys as JSON.parse does', () => {
    const body = Buffer.from('{"data":{"items":[{"id":"x"}]},"meta":{},"data":{"total":2,"items":[{"id":"a"} , {"id":"b","s":"}]\\"{"}]}}');
    const data = (JSON.parse(body.toString()) as { data: unknown }).data;
    const spans = recordSpans(listAt('items'), data, body);
    expect(spans!.map((s) => body.subarray(s.start, s.end).toString())).toEqual(['{"id":"a"}', '{"id":"b","s":"}]\\"{"}']);
  });

  it('skips the list entries recordsOf skips, keeping the rest in step', () => {
    const body = Buffer.from('{"data":[1,{"id":"a"},null,[{"id":"no"}],"s",{"id":"b"}]}');
    const data = (JSON.parse(body.toString()) as { data: unknown }).data;
    expect(recordSpans(customers, data, body)!.map((s) => body.subarray(s.start, s.end).toString())).toEqual(['{"id":"a"}', '{"id":"b"}']);
  });

  it('cuts a get answer at the record itself', () => {
    const body = Buffer.from(' { "meta" : {} , "data" : {"id":"a","n":[1,2]} } ');
    const data = (JSON.parse(body.toString()) as { data: unknown }).data;
    expect(recordSpans(getter, data, body)!.map((s) => body.subarray(s.start, s.end).toString())).toEqual(['{"id":"a","n":[1,2]}']);
  });

  it('gives no spans where the bytes cannot tell: a key on the path written with an escape, or a path through a list', () => {
    // JSON.parse reads the second key as "data" too, and keeps it: bytes compared as written would pick the first.
    const escaped = Buffer.from('{"data":[{"id":"a"}],"d\\u0061ta":[{"id":"b"}]}');
    expect(recordSpans(customers, (JSON.parse(escaped.toString()) as { data: unknown }).data, escaped)).toBeNull();
    const throughList = Buffer.from('{"data":{"items":[[{"id":"a"}]]}}');
    expect(pageSpans(throughList, ['data', 'items', '0'], true)).toBeNull();
  });
});
