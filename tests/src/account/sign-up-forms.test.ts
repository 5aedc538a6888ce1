import { describe, expect, it } from 'vitest';
import { buildFormSchema } from '../../../schemas/forms/build-form-schema';
import { validateFormData } from '../../../schemas/forms/validate-form';
import type { SiteConfig } from '../../../schemas/site-config/types';
import { formWithoutFields } from '../../../src/account/form-without-fields';
import { cardNumberProblem, panDigitsOf } from '../../../schemas/cards/card-rules';
import { capturesCardsAtSignUp, panLevelAtSignUp } from '../../../src/account/sign-up-cards';
import bancosol from '../../../fixtures/sites/bancosol.json';
import dohabank from '../../../fixtures/sites/dohabank.json';
import eurobank from '../../../fixtures/sites/eurobank.json';
import firstbank from '../../../fixtures/sites/firstbank.json';
import sabana from '../../../fixtures/sites/sabana.json';

const site = (config: unknown) => config as SiteConfig;

describe('§2 add-pan: cards at sign-up follow user_asset_profile pan', () => {
  it.each([
    ['firstbank', firstbank, 'Optional', true],
    ['bancosol', bancosol, 'Optional', true],
    ['dohabank', dohabank, 'Optional', true],
    ['sabana', sabana, 'Mandatory', true],
    ['eurobank', eurobank, 'None', false],
  ] as const)('%s: %s', (_name, config, level, captures) => {
    expect(panLevelAtSignUp(site(config))).toBe(level);
    expect(capturesCardsAtSignUp(site(config))).toBe(captures);
  });

  it('the card entry checks §5 card numbers (16 digits starting with 4, Luhn) and strips spaces for the API (§3)', () => {
    expect(cardNumberProblem('4111 1111 1111 1111', { required: true })).toBeNull();
    expect(cardNumberProblem('4111 1111 1111 1112', { required: true })).toBe('invalid');
    expect(panDigitsOf('4111 1111 1111 1111')).toBe('4111111111111111');
  });
});

describe('a site form without the fields a step already knows', () => {
  it('reset-password without the passcode keeps the new password rules and order', () => {
    const form = buildFormSchema(site(bancosol), 'pt_br', 'reset-password');
    const newPasswordOnly = formWithoutFields(form, ['passcode']);
    expect(Object.keys(newPasswordOnly.schema.properties ?? {}).sort()).toEqual(['confirm_password', 'password']);
    expect(newPasswordOnly.schema.required).toEqual(['password', 'confirm_password']);
    expect(newPasswordOnly.uiSchema['ui:order']).toEqual(['password', 'confirm_password']);
    expect(newPasswordOnly.uiSchema.passcode).toBeUndefined();
    // The gateway's own check of the shorter form accepts a new password alone.
    expect(validateFormData(newPasswordOnly.schema, { password: 'Sunny-Day-42', confirm_password: 'Sunny-Day-42' })).toEqual({});
  });
});
