import { f } from '../../field.js';
import type { FieldSpec, ParamSpec, PartitionSpec, ReadSpec } from '../../types.js';

export const iso = f.fmt('iso_datetime');
export const isoN = f.fmt('iso_datetime', true);
export const ref = f.objN({ gid: f.str({ format: 'id' }), resource_type: f.str(), name: f.strN() });

/** Shared paging (reference 4.15): `limit` (the platform caps it at 100) and an `offset` token from meta `next_page.offset`. */
export const pageParams: Record<string, ParamSpec> = { limit: { type: 'int', min: 1, max: 100 }, offset: { type: 'string' } };
export const pagedRead: ReadSpec = {
  action: 'list',
  pageSize: { param: 'limit', max: 100 },
  paging: { style: 'token', param: 'offset', from: 'next_page.offset' },
};

/** One partition per parent record (`{param}` = the parent's `gid`). */
export const per = (entity: string, param: string): PartitionSpec => ({ kind: 'parent', entity, param });
export const readPer = (entity: string, param: string, extra: Partial<ReadSpec> = {}): ReadSpec => ({
  ...pagedRead,
  partitions: [per(entity, param)],
  ...extra,
});

/** Compact records (`gid`, `resource_type`, `name`) returned by the nested lists. */
export const compact = (type: string, extra: Record<string, FieldSpec> = {}): Record<string, FieldSpec> => ({
  gid: f.str({ format: 'id' }),
  resource_type: f.konst(type),
  name: f.fmt('title'),
  ...extra,
});
export const taskSubtype = f.oneOf(['default_task', 'milestone', 'section', 'approval']);
