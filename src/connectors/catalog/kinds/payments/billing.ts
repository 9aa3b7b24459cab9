import { each, f, searchOf } from '../../field.js';
import type { EntityDef, FieldSpec } from '../../types.js';
import { LIMIT_RULE, cursorListParams, cursorRead, unix, unixN } from './shared.js';

// Invoices, subscriptions and refunds: record fields "not shown"; inferred from the public API of
// this kind of payments platform (same object envelope, unix timestamps, smallest-unit amounts).

const invoiceFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  object: f.konst('invoice'),
  ...each(f.int(), 'amount_due amount_paid amount_remaining attempt_count subtotal total'),
  attempted: f.bool(),
  auto_advance: f.boolN(),
  billing_reason: f.oneOf(['subscription_create', 'subscription_cycle', 'subscription_update', 'manual'], true),
  collection_method: f.oneOf(['charge_automatically', 'send_invoice']),
  created: unix,
  currency: f.fmt('currency'),
  customer: f.strN({ format: 'id' }),
  customer_email: f.fmt('email', true),
  customer_name: f.fmt('name', true),
  description: f.fmt('text', true),
  due_date: unixN,
  hosted_invoice_url: f.fmt('url', true),
  invoice_pdf: f.fmt('url', true),
  lines: f.obj(),
  livemode: f.bool(),
  metadata: f.obj(),
  number: f.strN(),
  paid: f.bool(),
  ...each(unix, 'period_start period_end'),
  status: f.oneOf(['draft', 'open', 'paid', 'uncollectible', 'void'], true),
  subscription: f.strN({ format: 'id' }),
};

export const invoices: EntityDef = {
  name: 'invoices',
  actions: ['list', 'get', 'api_search', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: invoiceFields,
  searchable: searchOf(
    invoiceFields,
    'id object amount_due amount_paid amount_remaining attempt_count subtotal total attempted billing_reason ' +
      'collection_method created currency customer customer_email customer_name description due_date livemode ' +
      'metadata number paid period_start period_end status subscription',
  ),
  params: {
    ...cursorListParams,
    customer: { type: 'string' },
    subscription: { type: 'string' },
    status: { type: 'string', enum: ['draft', 'open', 'paid', 'uncollectible', 'void'] },
  },
  read: cursorRead,
  rules: [LIMIT_RULE],
};

const subStatus = ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'];
const subscriptionFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  object: f.konst('subscription'),
  application: f.strN(),
  billing_cycle_anchor: unix,
  ...each(unixN, 'cancel_at canceled_at ended_at trial_start trial_end'),
  cancel_at_period_end: f.bool(),
  collection_method: f.oneOf(['charge_automatically', 'send_invoice']),
  created: unix,
  currency: f.fmt('currency'),
  ...each(unix, 'current_period_start current_period_end start_date'),
  customer: f.str({ format: 'id' }),
  days_until_due: f.intN(),
  default_payment_method: f.strN(),
  description: f.fmt('text', true),
  items: f.obj(),
  latest_invoice: f.strN({ format: 'id' }),
  livemode: f.bool(),
  metadata: f.obj(),
  status: f.oneOf(subStatus),
};

export const subscriptions: EntityDef = {
  name: 'subscriptions',
  actions: ['list', 'get', 'api_search', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: subscriptionFields,
  searchable: searchOf(
    subscriptionFields,
    'id object billing_cycle_anchor cancel_at canceled_at ended_at trial_start trial_end cancel_at_period_end ' +
      'collection_method created currency current_period_start current_period_end start_date customer ' +
      'days_until_due default_payment_method description items latest_invoice livemode metadata status',
  ),
  params: {
    ...cursorListParams,
    customer: { type: 'string' },
    price: { type: 'string' },
    status: { type: 'string', enum: [...subStatus, 'ended', 'all'] },
  },
  // Without `status=all` the list omits canceled subscriptions, which a copy must hold too.
  read: { ...cursorRead, fixedParams: { status: 'all' } },
  rules: [LIMIT_RULE],
};

const refundFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  object: f.konst('refund'),
  amount: f.int(),
  ...each(f.strN({ format: 'id' }), 'balance_transaction charge payment_intent'),
  created: unix,
  currency: f.fmt('currency'),
  description: f.fmt('text', true),
  metadata: f.obj(),
  reason: f.oneOf(['duplicate', 'fraudulent', 'requested_by_customer'], true),
  receipt_number: f.strN(),
  status: f.oneOf(['pending', 'requires_action', 'succeeded', 'failed', 'canceled'], true),
};

export const refunds: EntityDef = {
  name: 'refunds',
  actions: ['list', 'create', 'get', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: refundFields,
  searchable: searchOf(
    refundFields,
    'id object amount balance_transaction charge payment_intent created currency description metadata reason receipt_number status',
  ),
  params: { ...cursorListParams, charge: { type: 'string' }, payment_intent: { type: 'string' } },
  read: cursorRead,
  rules: [LIMIT_RULE],
};
