import { describe, expect, it } from 'vitest';
import { catalog } from '../../../src/connectors/catalog/index.js';
import type { ConnectorDef } from '../../../src/connectors/catalog/types.js';
import {
  validateCredentials,
  validateReplicationConfig,
  validateSchedule,
  validateStartDate,
} from '../../../src/connectors/catalog/validate.js';
import { AppError } from '../../../src/errors.js';

const kind = (key: string): ConnectorDef => {
  const def = catalog[key];
  if (def === undefined) throw new Error(`no kind ${key}`);
  return def;
};
const ads = kind('ad_platform_marketing');
const drive = kind('file_storage_drive');
const payments = kind('payments');

/** The AppError thrown by `fn` (fails the test when none or another error is thrown). */
function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error('expected an AppError');
}

const DRIVE_CONFIG = { folder_url: 'https://drive.example.com/folders/abc', streams: 'all' };

describe('validateReplicationConfig', () => {
  it('normalizes ad account ids: comma list or array, trimmed, act_ prefix stripped, de-duplicated', () => {
    expect(validateReplicationConfig(ads, { account_ids: ' act_123, 456 ,123,' })).toEqual({ account_ids: '123,456' });
    expect(validateReplicationConfig(ads, { account_ids: ['act_1', '2'] })).toEqual({ account_ids: '1,2' });
  });

  it('names the missing or malformed kind field', () => {
    expect(errorOf(() => validateReplicationConfig(ads, {})).path).toBe('replication_config.account_ids');
    expect(errorOf(() => validateReplicationConfig(ads, { account_ids: ' , ' })).path).toBe('replication_config.account_ids');
    expect(errorOf(() => validateReplicationConfig(ads, { account_ids: 42 })).path).toBe('replication_config.account_ids');
    expect(errorOf(() => validateReplicationConfig(ads, { account_ids: ['1', ''] })).path).toBe('replication_config.account_ids[1]');
    expect(errorOf(() => validateReplicationConfig(ads, { account_ids: '12 34' })).path).toBe('replication_config.account_ids');
  });

  it('requires folder_url (an http(s) URL) and streams for the drive', () => {
    expect(validateReplicationConfig(drive, DRIVE_CONFIG)).toEqual(DRIVE_CONFIG);
    expect(errorOf(() => validateReplicationConfig(drive, { streams: 'all' })).path).toBe('replication_config.folder_url');
    expect(errorOf(() => validateReplicationConfig(drive, { ...DRIVE_CONFIG, folder_url: 'ftp://x/y' })).path).toBe('replication_config.folder_url');
    expect(errorOf(() => validateReplicationConfig(drive, { folder_url: DRIVE_CONFIG.folder_url, streams: '' })).path).toBe('replication_config.streams');
  });

  it('rejects unknown keys by path, naming the allowed ones', () => {
    const err = errorOf(() => validateReplicationConfig(payments, { account_ids: '1' }));
    expect(err.code).toBe('invalid_request');
    expect(err.path).toBe('replication_config.account_ids');
    expect(err.message).toContain('entities, schedule, start_date');
    expect(errorOf(() => validateReplicationConfig(payments, [], 'body.replication_config')).path).toBe('body.replication_config');
  });

  it('accepts searchable entities only, de-duplicated, and points at the bad element', () => {
    expect(validateReplicationConfig(payments, { entities: ['charges', 'customers', 'charges'] })).toEqual({ entities: ['charges', 'customers'] });
    const err = errorOf(() => validateReplicationConfig(payments, { entities: ['customers', 'products'] }));
    expect(err.path).toBe('replication_config.entities[1]');
    expect(err.message).toContain('customers, invoices, charges, subscriptions, refunds');
    expect(errorOf(() => validateReplicationConfig(payments, { entities: [] })).path).toBe('replication_config.entities');
    expect(errorOf(() => validateReplicationConfig(payments, { entities: 'customers' })).path).toBe('replication_config.entities');
    expect(errorOf(() => validateReplicationConfig(drive, { ...DRIVE_CONFIG, entities: ['files'] })).message).toContain('no searchable entities');
  });

  it('validates schedule and start_date and returns them normalized', () => {
    expect(validateReplicationConfig(payments, { schedule: ' */15  *  * * 1-5 ', start_date: '2024-02-29' })).toEqual({
      schedule: '*/15 * * * 1-5',
      start_date: '2024-02-29T00:00:00.000Z',
    });
    expect(errorOf(() => validateReplicationConfig(payments, { schedule: 'hourly' })).path).toBe('replication_config.schedule');
    expect(errorOf(() => validateReplicationConfig(payments, { start_date: '2023-02-29' })).path).toBe('replication_config.start_date');
  });
});

describe('validateSchedule', () => {
  it.each([
    ['15m', '15m'],
    ['1H', '1h'],
    ['7d', '7d'],
    ['365d', '365d'],
    ['525600m', '525600m'],
    ['0 3 * * *', '0 3 * * *'],
    ['0,30 8-18/2 1 jan-jun mon', '0,30 8-18/2 1 jan-jun mon'],
    ['*/5 * * * 7', '*/5 * * * 7'],
    ['0 0 29 2 *', '0 0 29 2 *'],
    ['0 0 31 1,4 *', '0 0 31 1,4 *'],
  ])('accepts %s', (input, normalized) => expect(validateSchedule(input)).toBe(normalized));

  it.each(['0m', '15s', '1w', '* * * *', '* * * * * *', '60 * * * *', '* 24 * * *', '* * 0 * *', '* * * 13 *', '* * * * 8', '*/0 * * * *', '5-1 * * * *', '', 'daily', '366d', '8761h', '525601m', '100000000000000000000000d'])(
    'rejects %j with the schedule path',
    (input) => expect(errorOf(() => validateSchedule(input)).path).toBe('replication_config.schedule'),
  );

  it.each(['0 0 30 2 *', '0 0 31 4,6 *', '0 0 31 2,4,6,9,11 *'])('rejects %j, a date that never comes, before BullMQ would', (input) => {
    const e = errorOf(() => validateSchedule(input));
    expect(e.path).toBe('replication_config.schedule');
    expect(e.message).toContain('never fires');
  });
});

describe('validateStartDate', () => {
  it.each([
    ['2024-01-31', '2024-01-31T00:00:00.000Z'],
    ['2024-01-31T08:00:00Z', '2024-01-31T08:00:00.000Z'],
    ['2024-01-31T08:00', '2024-01-31T08:00:00.000Z'],
    ['2024-01-31T08:00:00.5+02:00', '2024-01-31T06:00:00.500Z'],
    ['2024-01-31T08:00:00-0130', '2024-01-31T09:30:00.000Z'],
  ])('accepts %s', (input, iso) => expect(validateStartDate(input)).toBe(iso));

  it.each(['2024-13-01', '2024-02-30', '2024-01-31T25:00:00Z', '31/01/2024', 'yesterday', '2024-1-5'])('rejects %s', (input) =>
    expect(errorOf(() => validateStartDate(input, 'rc.start_date')).path).toBe('rc.start_date'),
  );
  it('rejects non-strings', () => expect(errorOf(() => validateStartDate(20240131)).path).toBe('replication_config.start_date'));
});

describe('validateCredentials', () => {
  it('matches exactly one method and returns it with trimmed values', () => {
    expect(validateCredentials(ads, { access_token: ' tok ', client_id: 'cid' })).toEqual({ method: 'oauth', value: { access_token: 'tok', client_id: 'cid' } });
    expect(validateCredentials(ads, { account_key: 'k' })).toEqual({ method: 'token', value: { account_key: 'k' } });
    expect(validateCredentials(drive, { refresh_token: 'r' })).toEqual({ method: 'oauth', value: { refresh_token: 'r' } });
  });

  it('names a missing required field of the closest method', () => {
    const err = errorOf(() => validateCredentials(ads, { client_id: 'cid' }));
    expect(err.path).toBe('credentials.access_token');
    expect(err.message).toContain('oauth (access_token required; client_id, client_secret optional) or token (account_key required)');
    expect(errorOf(() => validateCredentials(drive, { access_token: 'a' })).path).toBe('credentials.refresh_token');
  });

  it('names an unknown or mixed-in field', () => {
    expect(errorOf(() => validateCredentials(ads, { access_token: 'a', account_key: 'k' })).path).toBe('credentials.account_key');
    expect(errorOf(() => validateCredentials(payments, { api_key: 'k', password: 'p' })).path).toBe('credentials.password');
  });

  it('refuses the Token method for the drive with a message saying so', () => {
    for (const creds of [{ account_key: 'k' }, { api_key: 'k' }, { refresh_token: 'r', api_key: 'k' }]) {
      const err = errorOf(() => validateCredentials(drive, creds));
      expect(err.code).toBe('invalid_request');
      expect(err.message).toContain('The Token method is unavailable for the file-storage drive connector');
      expect(err.path).toBe(`credentials.${Object.keys(creds).find((k) => k !== 'refresh_token') ?? ''}`);
    }
  });

  it('requires every value to be a non-empty string', () => {
    expect(errorOf(() => validateCredentials(ads, { access_token: '  ' })).path).toBe('credentials.access_token');
    expect(errorOf(() => validateCredentials(ads, { access_token: 'a', client_secret: 7 })).path).toBe('credentials.client_secret');
    expect(errorOf(() => validateCredentials(ads, 'token')).path).toBe('credentials');
    expect(errorOf(() => validateCredentials(ads, null, 'body.credentials')).path).toBe('body.credentials');
  });

  it('accepts a valid credential set for every kind', () => {
    for (const def of Object.values(catalog)) {
      for (const m of def.credentialMethods) {
        const value = Object.fromEntries(Object.entries(m.fields).filter(([, f]) => f.required).map(([k]) => [k, 'x']));
        expect(validateCredentials(def, value), `${def.key}.${m.name}`).toEqual({ method: m.name, value });
      }
    }
  });
});
