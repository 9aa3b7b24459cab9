/**
 * Per-entity touches where the generic generator cannot know a relation: records agree with the
 * partition they were listed under. Cheap, and only where a user would notice the mismatch.
 */
import type { GenContext, RecordSlot } from './generate.js';
import { hash32 } from './prng.js';

type Decorate = (rec: Record<string, unknown>, slot: RecordSlot, ctx: GenContext) => void;

const iso = (sec: number): string => new Date(sec * 1000).toISOString();

const DECORATORS: Readonly<Record<string, Decorate>> = {
  // An issue listed under project KEY is KEY-n, says so in fields.project, and was updated after it was created.
  'issue_tracker/issues': (rec, slot, ctx) => {
    const fields = rec.fields as Record<string, unknown>;
    fields.created = iso(slot.createdSec);
    fields.updated = iso(slot.createdSec + 3_600 * (slot.revision + 1));
    if (ctx.scope === '' || ctx.scope.startsWith('?')) return;
    rec.key = `${ctx.scope}-${slot.ordinal + 1}`;
    fields.project = { ...(fields.project as Record<string, unknown>), key: ctx.scope };
  },
  // The reference types the timeline's start_time `string?`: some rows come without one, though
  // it is half of the id the rows are stored under (catalog-decisions.md).
  'live_chat_support/agent_timeline': (rec, slot, ctx) => {
    if (hash32(`${ctx.seed}|${ctx.scope}|${slot.ordinal}`) % 6 === 0) rec.start_time = null;
  },
};

export function decoratorFor(type: string, entity: string): Decorate | undefined {
  const key = `${type}/${entity}`;
  return Object.hasOwn(DECORATORS, key) ? DECORATORS[key] : undefined;
}
