import { byType, each, f } from '../../field.js';
import type { EntityDef } from '../../types.js';
import { PER_PAGE_RULE, pageParams, pageRead } from './shared.js';

const iso = f.fmt('iso_datetime');
const isoN = f.fmt('iso_datetime', true);

export const attachments = f.arr({
  filename: f.str(),
  url: f.fmt('url'),
  created_at: iso,
  type: f.oneOf(['resume', 'cover_letter', 'admin_only', 'take_home_test', 'offer_packet', 'offer_letter', 'signed_offer_letter', 'other']),
});
const person = f.objN({ id: f.int(), first_name: f.fmt('first_name'), last_name: f.fmt('last_name'), name: f.fmt('name') });
const valueList = (format: 'phone' | 'email' | 'url' | 'text') =>
  f.arr({ value: f.fmt(format), type: f.oneOf(['home', 'work', 'mobile', 'personal', 'other']) });

export const candidates: EntityDef = {
  name: 'candidates',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.int(),
    first_name: f.fmt('first_name'),
    last_name: f.fmt('last_name'),
    company: f.fmt('company', true),
    title: f.fmt('title', true),
    ...each(iso, 'created_at updated_at last_activity'),
    is_private: f.bool(),
    photo_url: f.fmt('url', true),
    attachments,
    application_ids: f.arr('int'),
    phone_numbers: valueList('phone'),
    addresses: valueList('text'),
    email_addresses: valueList('email'),
    website_addresses: valueList('url'),
    social_media_addresses: f.arr({ value: f.fmt('url') }),
    recruiter: person,
    coordinator: person,
    can_email: f.bool(),
    tags: f.arr('string'),
    custom_fields: f.obj(),
  },
  searchable: byType({
    array:
      'addresses application_ids applications attachments educations email_addresses employments phone_numbers ' +
      'social_media_addresses tags website_addresses',
    boolean: 'can_email is_private',
    string: 'company coordinator created_at first_name last_activity last_name photo_url recruiter title updated_at',
    object: 'custom_fields keyed_custom_fields',
    int: 'id',
  }),
  params: pageParams,
  read: pageRead,
  rules: [PER_PAGE_RULE],
};

const applicationStatus = ['active', 'rejected', 'hired'];

export const applications: EntityDef = {
  name: 'applications',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.int(),
    candidate_id: f.int(),
    prospect: f.bool(),
    applied_at: iso,
    rejected_at: isoN,
    last_activity_at: iso,
    location: f.objN({ address: f.strN() }),
    source: f.obj({ id: f.int(), public_name: f.str() }),
    credited_to: f.obj({ id: f.int(), name: f.fmt('name') }),
    ...each(f.objN(), 'rejection_reason rejection_details prospective_office prospective_department'),
    jobs: f.arr({ id: f.int(), name: f.fmt('title') }),
    job_post_id: f.intN(),
    status: f.oneOf(applicationStatus),
    current_stage: f.objN({ id: f.int(), name: f.oneOf(['Application Review', 'Phone Screen', 'Onsite', 'Offer']) }),
    answers: f.arr({ question: f.str(), answer: f.fmt('text') }),
    prospect_detail: f.obj(),
    attachments,
    custom_fields: f.obj(),
  },
  searchable: byType({
    array: 'answers attachments jobs',
    string: 'applied_at last_activity_at rejected_at status location prospective_department prospective_office',
    int: 'candidate_id id job_post_id',
    object: 'credited_to current_stage prospect_detail rejection_details rejection_reason source',
    boolean: 'prospect',
  }),
  params: {
    ...pageParams,
    created_before: { type: 'string' },
    created_after: { type: 'string' },
    last_activity_after: { type: 'string' },
    job_id: { type: 'int' },
    status: { type: 'string', enum: applicationStatus },
  },
  read: { ...pageRead, incremental: { param: 'last_activity_after', field: 'last_activity_at', format: 'iso_datetime' } },
  rules: [PER_PAGE_RULE],
};
