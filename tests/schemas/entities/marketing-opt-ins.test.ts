import { describe, expect, it } from 'vitest';
import { marketingOptInsAttribute, normaliseMarketingOptIns, readMarketingOptIns } from '../../../schemas/entities/marketing-opt-ins';

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

  it("normalises the registration form's checkbox list and the stored shape to the one stored shape", () => {
    expect(normaliseMarketingOptIns({ email: true, sms: false })).toEqual({ email: { optin: true }, sms: { optin: false } });
    expect(normaliseMarketingOptIns({ email: { optin: true }, online: { optin: 'true' } })).toEqual({ email: { optin: true }, online: { optin: true } });
    // Mixed, as a partly migrated row could be; unknown keys and entries of neither shape are left out.
    expect(normaliseMarketingOptIns({ cashback: true, transactional: { optin: false }, newsletter: true, sms: 'yes' })).toEqual({
      transactional: { optin: false },
      cashback: { optin: true },
    });
    expect(normaliseMarketingOptIns(undefined)).toEqual({});
    expect(normaliseMarketingOptIns([true])).toEqual({});
  });

  it("reads opt-ins stored as the form's checkbox list `{ email: true }` as ticked (accounts registered before one shape was enforced)", () => {
    expect(readMarketingOptIns({ marketing_opt_ins: { email: true, cashback: false } })).toEqual({ ...NONE, email: true });
    // An entry in the list still wins over its legacy name.
    expect(readMarketingOptIns({ email_optin: 'true', marketing_opt_ins: { email: false } })).toEqual(NONE);
  });

  it('writes the stored shape for the flags given, in SPEC order, leaving out the ones not given', () => {
    const attribute = marketingOptInsAttribute({ cashback: false, email: true });
    expect(attribute).toEqual({ email: { optin: true }, cashback: { optin: false } });
    expect(Object.keys(attribute)).toEqual(['email', 'cashback']);
    expect(readMarketingOptIns({ marketing_opt_ins: attribute })).toEqual({ ...NONE, email: true });
  });
});
