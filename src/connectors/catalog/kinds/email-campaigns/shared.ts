import { f } from '../../field.js';
import type { ParamSpec, ReadSpec } from '../../types.js';

export const isoN = f.fmt('iso_datetime', true);

/**
 * `count`/`offset` on every list: the reference shows the limit (at most 1000) for campaigns only;
 * the platform applies the same cap everywhere. Meta `total_items` ends paging, so a short page
 * never ends it early.
 */
export const countParams: Record<string, ParamSpec> = {
  count: { type: 'int', min: 1, max: 1000, default: 10 },
  offset: { type: 'int', min: 0 },
};
export const offsetRead: ReadSpec = {
  action: 'list',
  pageSize: { param: 'count', max: 1000, default: 10 },
  paging: { style: 'offset', param: 'offset', total: 'total_items' },
};

export const perList: ReadSpec = { ...offsetRead, partitions: [{ kind: 'parent', entity: 'lists', param: 'list_id' }] };
export const perCampaign: ReadSpec = { ...offsetRead, partitions: [{ kind: 'parent', entity: 'campaigns', param: 'campaign_id' }] };
