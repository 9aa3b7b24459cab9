import { byType, each, f } from '../../field.js';
import type { EntityDef } from '../../types.js';
import { LIMIT_RULE, cursorListParams, cursorRead, unix } from './shared.js';

/** Charge item as the reference shows it in `api_search` results; list records are assumed alike. */
export const charges: EntityDef = {
  name: 'charges',
  actions: ['list', 'get', 'api_search', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.str({ format: 'id' }),
    object: f.konst('charge'),
    created: unix,
    livemode: f.bool(),
    ...each(f.int(), 'amount amount_captured amount_refunded'),
    amount_updates: f.arrN('object'),
    application_fee_amount: f.intN(),
    currency: f.fmt('currency'),
    ...each(f.bool(), 'disputed paid refunded captured'),
    ...each(
      f.strN(),
      'application application_fee calculated_statement_descriptor customer destination dispute ' +
        'failure_balance_transaction failure_code on_behalf_of order payment_intent payment_method review ' +
        'source_transfer statement_descriptor statement_descriptor_suffix transfer_group balance_transaction invoice',
    ),
    description: f.fmt('text', true),
    failure_message: f.fmt('text', true),
    receipt_email: f.fmt('email', true),
    receipt_number: f.strN(),
    receipt_url: f.fmt('url', true),
    ...each(f.objN(), 'fraud_details outcome payment_method_details presentment_details refunds shipping source transfer_data radar_options'),
    status: f.oneOf(['succeeded', 'pending', 'failed']),
    billing_details: f.obj({ name: f.fmt('name', true), email: f.fmt('email', true), phone: f.fmt('phone', true) }),
    metadata: f.obj(),
  },
  searchable: byType({
    int: 'amount amount_captured amount_refunded application_fee_amount created updated',
    boolean: 'captured disputed livemode paid refunded',
    array: 'amount_updates',
    object:
      'billing_details card fraud_details metadata outcome payment_method_details refunds shipping source transfer_data',
    string:
      'application application_fee balance_transaction calculated_statement_descriptor currency customer description ' +
      'destination dispute failure_balance_transaction failure_code failure_message id invoice object on_behalf_of order ' +
      'payment_intent payment_method receipt_email receipt_number receipt_url review source_transfer statement_description ' +
      'statement_descriptor statement_descriptor_suffix status transfer_group',
  }),
  params: { ...cursorListParams, customer: { type: 'string' }, payment_intent: { type: 'string' }, transfer_group: { type: 'string' } },
  read: cursorRead,
  rules: [LIMIT_RULE],
};
