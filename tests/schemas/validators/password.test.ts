import { describe, expect, it } from 'vitest';
import { passwordRuleResults, validateConfirmPassword, validatePassword } from '../../../schemas/validators';

describe('§5 password: the live checklist (passwordRuleResults)', () => {
  it('lists every rule in display order with its outcome', () => {
    expect(passwordRuleResults('passw0rd')).toEqual([
      { rule: 'length', passed: true },
      { rule: 'digit', passed: true },
      { rule: 'lowercase', passed: true },
      { rule: 'uppercase', passed: false },
      { rule: 'special', passed: false },
      { rule: 'noWhitespace', passed: true },
    ]);
  });

  it('counts the failed rules in passwordRulesError', () => {
    expect(validatePassword('passw0rd')).toEqual({ key: 'passwordRulesError', values: { count: 2 } });
    expect(validatePassword('Passw0rd!')).toBeNull();
  });

  it('counts length in characters: 8 emoji are 8 characters', () => {
    expect(passwordRuleResults('aA1!😀😀😀😀')[0]).toEqual({ rule: 'length', passed: true });
    expect(passwordRuleResults('aA1😀😀')[0]).toEqual({ rule: 'length', passed: false });
  });
});

describe('§5 confirm password: mustMatch', () => {
  it.each([
    ['Passw0rd!', 'Passw0rd!', null],
    ['Passw0rd!', 'passw0rd!', { key: 'mustMatch' }],
    ['Passw0rd! ', 'Passw0rd!', { key: 'mustMatch' }],
    ['', 'Passw0rd!', { key: 'mustMatch' }],
  ])('%j against %j gives %o', (confirm, password, expected) => {
    expect(validateConfirmPassword(confirm, password)).toEqual(expected);
  });
});
