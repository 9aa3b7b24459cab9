import { byName, defineConnector } from '../define.js';
import { balance_transactions, balance, disputes, payment_intents, payouts, products } from './payments/ledger.js';
import { invoices, refunds, subscriptions } from './payments/billing.js';
import { charges } from './payments/charges.js';
import { customers } from './payments/customers.js';

/** Payments platform (overview §8 limits: list `limit` 1–100; timestamps are unix seconds). */
export const payments = defineConnector({
  key: 'payments',
  title: 'Payments platform',
  credentialMethods: [
    { name: 'token', fields: { api_key: { required: true } } },
    { name: 'oauth', fields: { access_token: { required: true }, refresh_token: { required: false } } },
  ],
  replicationConfig: {},
  entities: byName(
    customers,
    invoices,
    charges,
    subscriptions,
    refunds,
    products,
    balance,
    balance_transactions,
    payment_intents,
    disputes,
    payouts,
  ),
});
