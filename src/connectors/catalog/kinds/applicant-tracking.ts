import { byName, defineConnector } from '../define.js';
import { each, f, searchOf } from '../field.js';
import type { EntityDef, FieldSpec, ReadSpec } from '../types.js';
import { applications, candidates } from './applicant-tracking/people.js';
import { PER_PAGE_RULE, pageParams, pageRead } from './applicant-tracking/shared.js';

const iso = f.fmt('iso_datetime');
const isoN = f.fmt('iso_datetime', true);
const ref = { id: f.int(), name: f.str() };

/**
 * Records and params of these entities are "not shown"; inferred from this kind of system. Where
 * it keeps an `updated_at`, its lists take `updated_after`, which drives incremental reads.
 */
const updatedRead: ReadSpec = { ...pageRead, incremental: { param: 'updated_after', field: 'updated_at', format: 'iso_datetime' } };

function inferred(
  name: string,
  actions: EntityDef['actions'],
  fields: Record<string, FieldSpec>,
  searchable: string | undefined,
  incremental: boolean,
): EntityDef {
  return {
    name,
    actions,
    idField: 'id',
    source: 'inferred',
    fields,
    ...(searchable === undefined ? {} : { searchable: searchOf(fields, searchable) }),
    params: incremental ? { ...pageParams, updated_after: { type: 'string' } } : pageParams,
    read: incremental ? updatedRead : pageRead,
    rules: [PER_PAGE_RULE],
  };
}

const jobs = inferred(
  'jobs',
  ['list', 'get', 'search'],
  {
    id: f.int(),
    name: f.fmt('title'),
    requisition_id: f.strN(),
    notes: f.fmt('text', true),
    confidential: f.bool(),
    status: f.oneOf(['open', 'closed', 'draft']),
    ...each(iso, 'created_at updated_at'),
    ...each(isoN, 'opened_at closed_at'),
    is_template: f.boolN(),
    copied_from_id: f.intN(),
    ...each(f.arr(ref), 'departments offices'),
    hiring_team: f.obj(),
    openings: f.arr({ id: f.int(), opening_id: f.strN(), status: f.oneOf(['open', 'closed']) }),
    custom_fields: f.obj(),
  },
  'id name requisition_id notes confidential status created_at updated_at opened_at closed_at is_template departments offices hiring_team openings custom_fields',
  true,
);

const offers = inferred(
  'offers',
  ['list', 'get', 'search'],
  {
    id: f.int(),
    version: f.int(),
    ...each(f.int(), 'application_id job_id candidate_id'),
    ...each(iso, 'created_at updated_at'),
    ...each(isoN, 'sent_at resolved_at'),
    starts_at: f.fmt('date', true),
    status: f.oneOf(['unresolved', 'accepted', 'rejected', 'deprecated']),
    opening: f.objN(),
    custom_fields: f.obj(),
  },
  'id version application_id job_id candidate_id created_at updated_at sent_at resolved_at starts_at status opening custom_fields',
  true,
);

const users = inferred(
  'users',
  ['list', 'get', 'search'],
  {
    id: f.int(),
    name: f.fmt('name'),
    first_name: f.fmt('first_name'),
    last_name: f.fmt('last_name'),
    primary_email_address: f.fmt('email'),
    emails: f.arr('string'),
    employee_id: f.strN(),
    ...each(f.bool(), 'disabled site_admin'),
    ...each(iso, 'created_at updated_at'),
    linked_candidate_ids: f.arr('int'),
  },
  'id name first_name last_name primary_email_address emails employee_id disabled site_admin created_at updated_at linked_candidate_ids',
  true,
);

const tree = { parent_id: f.intN(), child_ids: f.arr('int'), external_id: f.strN() };

const departments = inferred(
  'departments',
  ['list', 'get', 'search'],
  { id: f.int(), name: f.fmt('title'), ...tree },
  'id name parent_id child_ids external_id',
  false,
);

const offices = inferred(
  'offices',
  ['list', 'get', 'search'],
  { id: f.int(), name: f.fmt('title'), location: f.objN({ name: f.strN() }), primary_contact_user_id: f.intN(), ...tree },
  'id name location primary_contact_user_id parent_id child_ids external_id',
  false,
);

const job_posts = inferred(
  'job_posts',
  ['list', 'get', 'search'],
  {
    id: f.int(),
    title: f.fmt('title'),
    location: f.obj({ name: f.str() }),
    ...each(f.bool(), 'internal external active live'),
    first_published_at: isoN,
    job_id: f.int(),
    content: f.fmt('text'),
    internal_content: f.fmt('text', true),
    ...each(iso, 'created_at updated_at'),
    questions: f.arr({ label: f.str(), required: f.bool() }),
  },
  'id title location internal external active live first_published_at job_id content internal_content created_at updated_at questions',
  true,
);

const sources = inferred(
  'sources',
  ['list', 'search'],
  { id: f.int(), name: f.str(), type: f.obj({ id: f.int(), name: f.oneOf(['Prospecting', 'Referral', 'Job board', 'Agency']) }) },
  'id name type',
  false,
);

const scheduled_interviews = inferred(
  'scheduled_interviews',
  ['list', 'get'],
  {
    id: f.int(),
    application_id: f.int(),
    external_event_id: f.strN(),
    ...each(f.obj({ date_time: iso }), 'start end'),
    location: f.strN(),
    video_conferencing_url: f.fmt('url', true),
    status: f.oneOf(['scheduled', 'awaiting_feedback', 'complete']),
    ...each(iso, 'created_at updated_at'),
    interview: f.obj(ref),
    organizer: f.obj({ id: f.int(), name: f.fmt('name') }),
    interviewers: f.arr({ id: f.int(), name: f.fmt('name'), email: f.fmt('email') }),
  },
  undefined,
  true,
);

/** Download-only: an attachment is addressed by its URL; nothing to list or replicate. */
const download = (name: string): EntityDef => ({
  name,
  actions: ['download'],
  idField: 'url',
  source: 'inferred',
  fields: { url: f.fmt('url'), filename: f.str(), type: f.strN(), created_at: isoN },
});

/** Applicant tracking (per_page at most 500). Credentials "not shown": an API key. */
export const applicantTracking = defineConnector({
  key: 'applicant_tracking',
  title: 'Applicant tracking',
  credentialMethods: [{ name: 'token', fields: { api_key: { required: true } } }],
  replicationConfig: {},
  entities: byName(
    candidates,
    applications,
    jobs,
    offers,
    users,
    departments,
    offices,
    job_posts,
    sources,
    scheduled_interviews,
    download('application_attachment'),
    download('candidate_attachment'),
  ),
});
