import { describe, expect, it } from 'vitest';
import {
  dropProfileDraft,
  keepProfileDraft,
  keepRegistrationDraft,
  nonSecretFields,
  readProfileDraft,
  readRegistrationDraft,
} from '../../../src/account/form-drafts';

/** A session storage of its own per test. */
function memoryStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> & { dump(): string } {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
    dump: () => JSON.stringify([...items]),
  };
}

const REGISTRATION = {
  first_name: 'Alex',
  email: 'alex@example.com',
  password: 'Sunny-Day-42',
  confirm_password: 'Sunny-Day-42',
  nationalId: '501234567',
  ninedigitbin: '412345678',
  dob: '1988-04-12',
  marketing_opt_ins: { cashback: true },
  pp: true,
};

describe('kept form drafts (SPEC §2 registration/add-pan and edit-profile)', () => {
  it('never keeps a password, national id or any part of a card number', () => {
    expect(nonSecretFields(REGISTRATION)).toEqual({
      first_name: 'Alex',
      email: 'alex@example.com',
      dob: '1988-04-12',
      marketing_opt_ins: { cashback: true },
      pp: true,
    });
    const storage = memoryStorage();
    keepRegistrationDraft('firstbank', { ...REGISTRATION, cards: [{ pan: '4111111111111111' }], pan: '4111111111111111', cvv: '123' }, storage);
    for (const secret of ['Sunny-Day-42', '501234567', '412345678', '4111111111111111', '"cvv"']) expect(storage.dump()).not.toContain(secret);
  });

  it('gives the registration fields back on the same site only, and nothing once dropped or when unreadable', () => {
    const storage = memoryStorage();
    keepRegistrationDraft('firstbank', REGISTRATION, storage);
    expect(readRegistrationDraft('firstbank', storage)).toMatchObject({ first_name: 'Alex', email: 'alex@example.com' });
    expect(readRegistrationDraft('bancosol', storage)).toBeNull();
    storage.setItem('registration_draft', '{not json');
    expect(readRegistrationDraft('firstbank', storage)).toBeNull();
    // A draft written by hand with a secret in it still gives none back.
    storage.setItem('registration_draft', JSON.stringify({ siteId: 'firstbank', data: { first_name: 'Alex', password: 'x' } }));
    expect(readRegistrationDraft('firstbank', storage)).toEqual({ first_name: 'Alex' });
  });

  it("gives a profile draft (changed fields and the version they were read at) back only to its owner; anyone else's is dropped unseen", () => {
    const storage = memoryStorage();
    const owner = { siteId: 'eurobank', userId: 'u-1' };
    keepProfileDraft(owner, { changes: { last_name: 'Kept', password: 'never' }, baseVersion: 3 }, storage);
    expect(storage.dump()).not.toContain('never');
    expect(readProfileDraft(owner, storage)).toEqual({ changes: { last_name: 'Kept' }, baseVersion: 3 });
    // Read again (a reload of the restored form) it is still there, until saved or left.
    expect(readProfileDraft(owner, storage)).toEqual({ changes: { last_name: 'Kept' }, baseVersion: 3 });
    expect(readProfileDraft({ siteId: 'eurobank', userId: 'u-2' }, storage)).toBeNull();
    expect(readProfileDraft(owner, storage)).toBeNull();
    keepProfileDraft(owner, { changes: { last_name: 'Kept' }, baseVersion: 3 }, storage);
    dropProfileDraft(storage);
    expect(readProfileDraft(owner, storage)).toBeNull();
    // Not a draft (no version): dropped.
    storage.setItem('profile_draft', JSON.stringify({ ...owner, changes: { last_name: 'Kept' } }));
    expect(readProfileDraft(owner, storage)).toBeNull();
  });
});
