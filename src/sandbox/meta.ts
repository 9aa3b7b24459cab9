/**
 * The `meta` of a served page: the paging values the catalog names (exact names and dot paths),
 * plus the companions each kind's reference shows next to them (`pagination` totals, `next_link`,
 * `total`), so a client reading the real shapes finds them here.
 */
import type { ServeSpec } from './serve-spec.js';

/** What a page knows about itself. */
export interface PageInfo {
  readonly kind: string;
  readonly entity: string;
  readonly spec: ServeSpec;
  readonly more: boolean;
  /** Token for the next page (token styles), null at the end. */
  readonly token: string | null;
  readonly returned: number;
  /** Live records before this page. */
  readonly skipped: number;
  readonly size: number;
  /** Live records the query matches. */
  total(): number;
}

export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const key of parts.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[parts[parts.length - 1] as string] = value;
}

/** At the end a nested token's object is null (`next_page: null`), a flat one is null itself. */
function endMarker(meta: Record<string, unknown>, path: string): void {
  const dot = path.indexOf('.');
  if (dot < 0) meta[path] = null;
  else setPath(meta, path.slice(0, path.lastIndexOf('.')), null);
}

function generic(p: PageInfo): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  const paging = p.spec.paging;
  if (paging.style === 'last_id') meta[paging.hasMore ?? 'has_more'] = p.more;
  if (paging.style === 'token') {
    if (p.more && p.token !== null) setPath(meta, paging.from, p.token);
    else endMarker(meta, paging.from);
    if (paging.flag !== undefined) setPath(meta, paging.flag.path, p.more ? !paging.flag.doneWhen : paging.flag.doneWhen);
  }
  if (paging.style === 'offset' && paging.total !== undefined) setPath(meta, paging.total, p.total());
  return meta;
}

type Extra = (p: PageInfo, meta: Record<string, unknown>) => void;

const EXTRAS: Readonly<Record<string, Extra>> = {
  payments: (p, meta) => {
    meta.url = p.spec.action === 'api_search' ? `/v1/${p.entity}/search` : `/v1/${p.entity}`;
  },
  issue_tracker: (p, meta) => {
    if (p.spec.action === 'api_search') meta.total = p.total();
  },
  crm: (p, meta) => {
    meta.next_link = p.more && p.token !== null ? `https://api.example.com/crm/v3/objects/${p.entity}?after=${p.token}` : null;
    if (p.spec.action === 'api_search') meta.total = p.total();
  },
  sales_call_intelligence: (p, meta) => {
    meta.pagination = {
      totalRecords: p.total(),
      currentPageSize: p.returned,
      currentPageNumber: p.size > 0 ? Math.floor(p.skipped / p.size) : 0,
      ...(p.more && p.token !== null ? { cursor: p.token } : {}),
    };
  },
  work_management: (p, meta) => {
    if (p.spec.paging.style !== 'token' || p.spec.paging.from !== 'next_page.offset') return;
    meta.next_page = p.more && p.token !== null ? { offset: p.token, path: `/${p.entity}?offset=${p.token}`, uri: `https://app.example.com/api/1.0/${p.entity}?offset=${p.token}` } : null;
  },
};

export function metaFor(p: PageInfo): Record<string, unknown> {
  const meta = generic(p);
  const extra = Object.hasOwn(EXTRAS, p.kind) ? EXTRAS[p.kind] : undefined;
  extra?.(p, meta);
  return meta;
}
