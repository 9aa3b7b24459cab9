import type { ParamSpec, ReadSpec } from '../../types.js';

export const PER_PAGE_RULE = 'Applicant tracking `list` actions: `per_page` at most 500 (overview §8)';

/** `per_page`/`page` on every list (shown for candidates and applications, assumed for the rest). */
export const pageParams: Record<string, ParamSpec> = {
  per_page: { type: 'int', min: 1, max: 500 },
  page: { type: 'int', min: 1 },
};

export const pageRead: ReadSpec = {
  action: 'list',
  pageSize: { param: 'per_page', max: 500 },
  paging: { style: 'page', param: 'page', start: 1 },
};
