import { describe, expect, it } from 'vitest';
import { parseCreateConnector } from '../../../src/app/connector-service.js';

const base = { external_user_id: 'u1', name: 'n', replication_config: {} };

describe('create-connector body: credentials or the hosted OAuth secret id', () => {
  it('takes null as absent for either field (overview 4.1: each is required when the other is absent)', () => {
    expect(parseCreateConnector({ ...base, connector_type: 'payments', credentials: null, server_side_oauth_secret_id: 'sec_1' }).secret).toEqual({ method: 'oauth_secret', value: { server_side_oauth_secret_id: 'sec_1' } });
    expect(parseCreateConnector({ ...base, connector_type: 'payments', credentials: { api_key: 'k' }, server_side_oauth_secret_id: null }).secret.method).not.toBe('oauth_secret');
    expect(() => parseCreateConnector({ ...base, connector_type: 'payments', credentials: null, server_side_oauth_secret_id: null })).toThrow(expect.objectContaining({ code: 'invalid_request', path: 'credentials' }));
  });

  it('refuses both at once, naming the secret id', () => {
    expect(() => parseCreateConnector({ ...base, connector_type: 'payments', credentials: { api_key: 'k' }, server_side_oauth_secret_id: 's' })).toThrow(expect.objectContaining({ code: 'invalid_request', path: 'server_side_oauth_secret_id' }));
  });

  it('refuses a secret id for a kind the reference gives no OAuth method, naming the methods it has', () => {
    const call = () => parseCreateConnector({ ...base, connector_type: 'applicant_tracking', server_side_oauth_secret_id: 'sec_1' });
    expect(call).toThrow(expect.objectContaining({ code: 'invalid_request', path: 'server_side_oauth_secret_id' }));
    expect(call).toThrow(/applicant_tracking has no OAuth method \(it takes: token\)/);
  });
});
