import { describe, expect, it } from 'vitest';
import { marketingOptInsAttribute, readMarketingOptIns } from '../../../schemas/entities/marketing-opt-ins';

const NONE = { email: false, transactional: false, sms: false, online: false, cashback: false };

describe('SPEC §3 marketing opt-ins (ADR 0010)', () => {
  it('reads the new shape, every opt-in false when absent', () => {
    expect(readMarketingOptIns({ marketing_opt_ins: { email: { optin: true }, online: { optin: false }, cashback: { optin: true } } })).toEqual({
      ...NONE,
      email: true,
      cashback: true,
    });
    expect(readMarketingOptIns({})).toEqual(NONE);
  });

  it('maps the legacy names trnxn_data_optin, sms_optin, online_optin, email_optin ("true" or true) to transactional, sms, online, email', () => {
    expect(readMarketingOptIns({ trnxn_data_optin: 'true', sms_optin: true, online_optin: 'false', email_optin: 'true' })).toEqual({
      ...NONE,
      transactional: true,
      sms: true,
      email: true,
    });
  });

  it('prefers the new key over its legacy name when both are there', () => {
    expect(readMarketingOptIns({ email_optin: 'true', sms_optin: 'false', marketing_opt_ins: { email: { optin: false }, sms: { optin: true } } })).toEqual({
      ...NONE,
      sms: true,
    });
  });

  it('reads a stored "true" text flag as true and anything else as false', () => {
    expect(readMarketingOptIns({ marketing_opt_ins: { email: { optin: 'true' }, sms: { optin: 'yes' }, online: 'true' } })).toEqual({ ...NONE, email: true });
  });

  it('writes the stored shape for the flags given, in SPEC order, leaving out the ones not given', () => {
    const attribute = marketingOptInsAttribute({ cashback: false, email: true });
    expect(attribute).toEqual({ email: { optin: true }, cashback: { optin: false } });
    expect(Object.keys(attribute)).toEqual(['email', 'cashback']);
    expect(readMarketingOptIns({ marketing_opt_ins: attribute })).toEqual({ ...NONE, email: true });
  });
});
