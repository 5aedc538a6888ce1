import { describe, expect, it } from 'vitest';
import {
  dropFlowStep,
  dropProfileDraft,
  keepFlowStep,
  keepProfileDraft,
  keepRegistrationDraft,
  nonSecretFields,
  readFlowStep,
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

describe('flow steps (ADR 0019 "Flow steps")', () => {
  it('keeps where each flow stands for its site, never a passcode, password or token, and drops one flow without the others', () => {
    const storage = memoryStorage();
    keepFlowStep('recovery', 'bancosol', { email: 'ana@example.com', passcode: '482913' }, storage);
    keepFlowStep(
      'sign-in',
      'bancosol',
      { username: 'ana@example.com', password: 'Recompensas@2025', otp: '123456', maskedDestination: '*** *** 4321' },
      storage,
    );
    expect(storage.dump()).not.toMatch(/482913|Recompensas|123456/);
    expect(readFlowStep('recovery', 'bancosol', storage)).toEqual({ email: 'ana@example.com' });
    expect(readFlowStep('recovery', 'sabana', storage)).toBeNull();
    expect(readFlowStep('sign-in', 'bancosol', storage)).toEqual({ username: 'ana@example.com', maskedDestination: '*** *** 4321' });
    dropFlowStep('recovery', storage);
    expect(readFlowStep('recovery', 'bancosol', storage)).toBeNull();
    expect(readFlowStep('sign-in', 'bancosol', storage)).not.toBeNull();
    dropFlowStep('sign-in', storage);
    expect(storage.dump()).toBe('[]');
  });

  it('a hand-written entry cannot bring a secret in, and a broken one reads as none', () => {
    const storage = memoryStorage();
    storage.setItem('flow_steps', JSON.stringify({ recovery: { siteId: 'bancosol', step: { email: 'a@example.com', password: 'x' } } }));
    expect(readFlowStep('recovery', 'bancosol', storage)).toEqual({ email: 'a@example.com' });
    storage.setItem('flow_steps', '{not json');
    expect(readFlowStep('recovery', 'bancosol', storage)).toBeNull();
  });
});
