/**
 * Request checks the third parties make, as 400s naming the offending param: unknown params,
 * types, enums, bounds (page sizes included), required params, and the rules of overview §7/§8.
 */
import type { ParamSpec } from '../connectors/catalog/types.js';
import { AppError } from '../errors.js';
import { isBoundedJql } from './jql.js';
import type { ServeSpec } from './serve-spec.js';

/** A 400 whose message and path name the param (callers see which one to fix). */
export const bad = (message: string, param: string): AppError =>
  new AppError('invalid_request', message.includes(param) ? message : `${param}: ${message}`, { path: `params.${param}` });

const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkOne(name: string, spec: ParamSpec, value: unknown): void {
  const fits =
    spec.type === 'int' ? typeof value === 'number' && Number.isInteger(value)
    : spec.type === 'boolean' ? typeof value === 'boolean'
    : spec.type === 'string' ? typeof value === 'string'
    : spec.type === 'array' ? Array.isArray(value)
    : isObject(value);
  if (!fits) throw bad(`${name} must be ${spec.type === 'int' ? 'an integer' : `a ${spec.type}`}`, name);
  if (typeof value === 'number' && ((spec.min !== undefined && value < spec.min) || (spec.max !== undefined && value > spec.max))) {
    const range = spec.max === undefined ? `at least ${spec.min ?? 0}` : `between ${spec.min ?? 0} and ${spec.max}`;
    throw bad(`${name} must be an integer ${range}`, name);
  }
  if (typeof value === 'string' && spec.enum !== undefined && !spec.enum.includes(value)) throw bad(`${name} must be one of: ${spec.enum.join(', ')}`, name);
  if (typeof value === 'string' && spec.maxLength !== undefined && value.length > spec.maxLength) throw bad(`${name} must be at most ${spec.maxLength} characters`, name);
  if (spec.keys !== undefined) checkKeys(name, spec.keys, value as Record<string, unknown>);
}

/** The keys of an object param (payments `created`: `gt`, `gte`, `lt`, `lte`), each checked as a param `created.gte`. */
function checkKeys(name: string, keys: Readonly<Record<string, ParamSpec>>, value: Record<string, unknown>): void {
  for (const [key, v] of Object.entries(value)) {
    const spec = Object.hasOwn(keys, key) ? keys[key] : undefined;
    if (spec === undefined) throw bad(`unknown key ${name}.${key}; ${name} takes: ${Object.keys(keys).join(', ')}`, `${name}.${key}`);
    if (v !== null) checkOne(`${name}.${key}`, spec, v);
  }
}

/** Types, bounds and presence of every param against the action's declared params. */
export function checkParams(spec: ServeSpec, params: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(params)) {
    const p = Object.hasOwn(spec.params, name) ? spec.params[name] : undefined;
    if (p === undefined) throw bad(`unknown parameter ${name}; this action takes: ${Object.keys(spec.params).join(', ') || 'none'}`, name);
    if (value !== null) checkOne(name, p, value);
  }
  for (const [name, p] of Object.entries(spec.params)) {
    if (p.required === true && (params[name] === undefined || params[name] === null || params[name] === '')) throw bad(`${name} is required`, name);
  }
  const size = spec.pageSize;
  const raw = size === undefined ? undefined : params[size.param];
  if (size !== undefined && raw !== undefined && (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > size.max)) {
    throw bad(`${size.param} must be an integer between 1 and ${size.max}`, size.param);
  }
}

const present = (params: Record<string, unknown>, name: string): boolean => params[name] !== undefined && params[name] !== null && params[name] !== '';

/** Work-management `workspace_task_search` filters (§7 rule 5); `sort_by`/`sort_ascending` do not count. */
const TASK_SEARCH_FILTERS = [
  'text', 'completed', 'assignee.any', 'projects.any', 'sections.any', 'teams.any', 'followers.any',
  'created_at.after', 'created_at.before', 'modified_at.after', 'modified_at.before', 'due_on.after', 'due_on.before', 'resource_subtype',
];

type Rule = (params: Record<string, unknown>) => void;

/** Overview §7 rules 1, 3, 4, 5 and the §8 limits that are not plain param bounds, by `kind.entity.action`. */
const RULES: Readonly<Record<string, Rule>> = {
  'issue_tracker.issues.api_search': (p) => {
    if (!isBoundedJql(String(p.jql ?? ''))) throw bad('unbounded JQL: restrict the query by project, assignee, reporter, issue key or sprint (a date or ordering alone is not enough)', 'jql');
    if (typeof p.properties === 'string' && p.properties.split(',').filter((k) => k.trim() !== '').length > 5) throw bad('properties accepts at most 5 keys', 'properties');
  },
  'email_marketing.campaigns.list': (p) => {
    if (!present(p, 'filter')) throw bad('filter is required: the channel, email or sms', 'filter');
  },
  'work_management.tasks.list': (p) => {
    if (!present(p, 'project') && !present(p, 'section') && !(present(p, 'workspace') && present(p, 'assignee'))) {
      throw bad('tasks.list must include project, or section, or workspace together with assignee', present(p, 'workspace') ? 'assignee' : 'project');
    }
  },
  'work_management.workspace_task_search.list': (p) => {
    if (!TASK_SEARCH_FILTERS.some((f) => present(p, f))) throw bad(`at least one search filter is required: ${TASK_SEARCH_FILTERS.join(', ')}`, 'text');
  },
};

const crmSearch: Rule = (p) => {
  if (Array.isArray(p.filterGroups) && p.filterGroups.length > 6) throw bad('at most 6 filter groups', 'filterGroups');
};

export function checkRules(kind: string, entity: string, action: string, params: Record<string, unknown>): void {
  RULES[`${kind}.${entity}.${action}`]?.(params);
  if (kind === 'crm' && action === 'api_search') crmSearch(params);
}
