import { byName, defineConnector } from '../define.js';
import { byType, each, f, searchOf } from '../field.js';
import type { EntityDef, FieldSpec, ParamSpec, ReadSpec } from '../types.js';

const isoN = f.fmt('iso_datetime', true);
const strN = f.strN();
const address = f.objN({ line1: strN, city: strN, state: strN, postal_code: strN, country: f.fmt('country', true) });

/** `limit` max not shown; 100 is the platform's documented cap. Paging ends on a null `next_cursor`. */
const listParams: Record<string, ParamSpec> = { limit: { type: 'int', min: 1, max: 100 }, cursor: { type: 'string' } };
const read: ReadSpec = { action: 'list', pageSize: { param: 'limit', max: 100 }, paging: { style: 'token', param: 'cursor', from: 'next_cursor' } };

const customerFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  external_customer_id: strN,
  name: f.fmt('company', true),
  email: f.fmt('email', true),
  created_at: isoN,
  payment_provider: f.oneOf(['stripe_charge', 'stripe_invoice', 'quickbooks', 'bill.com', 'netsuite'], true),
  payment_provider_id: strN,
  timezone: f.fmt('timezone', true),
  balance: strN,
  currency: f.fmt('currency', true),
  shipping_address: address,
  billing_address: address,
  tax_id: f.objN({ country: f.fmt('country'), type: f.str(), value: f.str() }),
  auto_collection: f.boolN(),
  metadata: f.objN(),
};

const customers: EntityDef = {
  name: 'customers',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'reference',
  fields: customerFields,
  // "the same names (strings, objects for addresses and metadata, boolean auto_collection) except tax_id"
  searchable: searchOf(
    customerFields,
    'id external_customer_id name email created_at payment_provider payment_provider_id timezone balance currency ' +
      'shipping_address billing_address auto_collection metadata',
  ),
  params: listParams,
  read,
};

const subscriptionStatus = ['active', 'ended', 'upcoming'];

const subscriptions: EntityDef = {
  name: 'subscriptions',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.str({ format: 'id' }),
    ...each(isoN, 'created_at start_date end_date current_billing_period_start_date current_billing_period_end_date'),
    status: f.oneOf(subscriptionStatus, true),
    default_invoice_memo: f.fmt('text', true),
    invoicing_threshold: strN,
    customer: f.objN({ id: f.str(), external_customer_id: strN }),
    plan: f.objN({ id: f.str(), name: f.fmt('title') }),
    ...each(f.objN(), 'redeemed_coupon metadata'),
    active_plan_phase_order: f.intN(),
    ...each(f.arrN('object'), 'fixed_fee_quantity_schedule price_intervals'),
    auto_collection: f.boolN(),
    net_terms: f.intN(),
  },
  searchable: byType({
    string: 'id created_at start_date end_date status current_billing_period_start_date current_billing_period_end_date',
    object: 'customer plan metadata',
    boolean: 'auto_collection',
    int: 'net_terms',
  }),
  params: {
    ...listParams,
    customer_id: { type: 'string' },
    external_customer_id: { type: 'string' },
    status: { type: 'string', enum: subscriptionStatus },
  },
  read,
};

const plans: EntityDef = {
  name: 'plans',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.str({ format: 'id' }),
    created_at: isoN,
    name: f.fmt('title', true),
    description: f.fmt('text', true),
    status: f.oneOf(['active', 'archived', 'draft'], true),
    default_invoice_memo: strN,
    ...each(f.fmt('currency', true), 'currency invoicing_currency'),
    external_plan_id: strN,
    net_terms: f.intN(),
    prices: f.arrN('object'),
    ...each(f.objN(), 'product minimum maximum discount trial_config metadata'),
    plan_phases: f.arrN('object'),
  },
  // Shown fields only: the rest of plans' searchable fields is "not shown".
  searchable: byType({
    string: 'id created_at name description status currency external_plan_id',
    array: 'prices',
    object: 'product metadata',
  }),
  params: listParams,
  read,
};

const invoiceFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  invoice_number: f.str(),
  customer: f.obj({ id: f.str(), external_customer_id: strN }),
  subscription: f.objN({ id: f.str() }),
  status: f.oneOf(['draft', 'issued', 'paid', 'void', 'synced']),
  ...each(f.str(), 'amount_due total subtotal'),
  currency: f.fmt('currency'),
  ...each(f.fmt('iso_datetime'), 'created_at invoice_date'),
  ...each(isoN, 'due_date issued_at paid_at voided_at'),
  ...each(f.fmt('url', true), 'hosted_invoice_url invoice_pdf'),
  line_items: f.arr('object'),
  memo: f.fmt('text', true),
  metadata: f.obj(),
};

/** Invoices: fields "not shown"; inferred (amounts are decimal strings, as elsewhere in this kind). */
const invoices: EntityDef = {
  name: 'invoices',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: invoiceFields,
  searchable: searchOf(
    invoiceFields,
    'id invoice_number customer subscription status amount_due total subtotal currency created_at invoice_date due_date ' +
      'issued_at paid_at voided_at hosted_invoice_url memo metadata line_items',
  ),
  params: listParams,
  read,
};

/** Usage billing. Credentials "not shown": an API key. */
export const usageBilling = defineConnector({
  key: 'usage_billing',
  title: 'Usage billing',
  credentialMethods: [{ name: 'token', fields: { api_key: { required: true } } }],
  replicationConfig: {},
  entities: byName(customers, subscriptions, plans, invoices),
});
