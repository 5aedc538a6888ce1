import { describe, expect, it } from 'vitest';
import { buildFormSchema } from '../../../schemas/forms/build-form-schema';
import type { SiteConfig } from '../../../schemas/site-config/types';
import bancosol from '../../../fixtures/sites/bancosol.json';
import firstbank from '../../../fixtures/sites/firstbank.json';
import { changedAttributes, initialAttributeValues } from '../../../src/screens/profile/changed-attributes';
import { singleFieldForm, withoutFieldsEditedElsewhere } from '../../../src/screens/profile/profile-forms';
import { formatCalendarDay, formatMoney, formatWithMask, maskNationalId } from '../../../src/screens/profile/profile-format';

/** The pure rules behind the profile screens: display formats and "save only what changed" (ADR 0010). */
const PROFILE = {
  dob: '1990-04-12T00:00:00Z',
  email: 'ana.souza@example.com',
  firstName: 'Ana',
  lastName: 'Souza',
  title: 'Ms',
  userAccountStatus: 'ACTIVE',
  primaryUserIdentifier: 'ana.souza@example.com',
  mfaEnrollmentStatus: 'NOT_ENROLLED',
};

describe('display formats (SPEC §3, §5)', () => {
  it('a date of birth from its first 10 characters, in each locale format, on the stored day whatever the time zone', () => {
    expect(formatCalendarDay('1988-04-12T23:30:00-05:00', 'en-US')).toBe('April 12, 1988');
    expect(formatCalendarDay('1988-04-12', 'pt-BR')).toBe('12 de abril de 1988');
    expect(formatCalendarDay('1988-04-12', 'de-DE')).toBe('12. April 1988');
    expect(formatCalendarDay('1988-04-12', 'ar-QA')).toBe('12 أبريل 1988');
    expect(formatCalendarDay('not a date', 'en-US')).toBe('');
  });

  it('phone and postal code in the site masks', () => {
    expect(formatWithMask('11987654321', '(00) 00000-0000')).toBe('(11) 98765-4321');
    expect(formatWithMask('55123456', '0000 0000')).toBe('5512 3456');
    expect(formatWithMask('01310100', '00000-000')).toBe('01310-100');
    expect(formatWithMask('h2x1y4', null)).toBe('h2x1y4');
  });

  it('a national id shows only its last four characters', () => {
    expect(maskNationalId('52998224725', '000.000.000-00')).toBe('•••.•••.•47-25');
    expect(maskNationalId('536224189', '000-00-0000')).toBe('•••-••-4189');
    expect(maskNationalId('28763400123', null)).toBe('•••••••0123');
  });

  it('money from minor units with the currency digits Intl knows', () => {
    expect(formatMoney(1250, 'USD', 'en-US')).toBe('$12.50');
    expect(formatMoney(1250, 'BRL', 'pt-BR')).toBe('R$\u00a012,50');
    expect(formatMoney(1250, 'JPY', 'en-US')).toBe('¥1,250');
    // One digit system per page (schemas/locales/intl-format.ts): Latin in Arabic too, with Arabic's words and marks.
    expect(formatMoney(123450, 'QAR', 'ar-QA')).toBe('\u200f1,234.50\u00a0ر.ق.\u200f');
  });
});

describe('edit-profile data (ADR 0010 "Saving only what changed")', () => {
  const form = withoutFieldsEditedElsewhere(buildFormSchema(bancosol as unknown as SiteConfig, 'pt_br', 'edit-profile'));

  it('leaves out what other screens edit (opt-ins, offer preferences) and never has e-mail or national id (SPEC §5)', () => {
    const keys = Object.keys(form.schema.properties ?? {});
    expect(keys).toEqual(expect.arrayContaining(['first_name', 'last_name', 'dob', 'phone', 'address']));
    for (const key of ['marketing_opt_ins', 'offers_preference', 'email', 'nationalId', 'password', 'pp']) expect(keys).not.toContain(key);
    expect(form.uiSchema['ui:order']).not.toContain('marketing_opt_ins');
  });

  it('starts from the attributes, else the profile (dob cut to 10 characters), else the schema default', () => {
    const values = initialAttributeValues(form.schema, { phone: '11987654321', first_name: 'Ana Paula' }, PROFILE);
    expect(values.first_name).toBe('Ana Paula');
    expect(values.last_name).toBe('Souza');
    expect(values.dob).toBe('1990-04-12');
    expect(values.phone).toBe('11987654321');
    expect(values.email).toBeUndefined();
  });

  it('a date of birth stored with one-digit month and day ("1980-1-1") starts as YYYY-MM-DD, so the profile shows it (SPEC §9)', () => {
    const values = initialAttributeValues(form.schema, { dob: '1980-1-1' }, PROFILE);
    expect(values.dob).toBe('1980-01-01');
    expect(formatCalendarDay(String(values.dob), 'es-CO')).toBe('1 de enero de 1980');
  });

  it('a title as stored ("Ms") matches the form option ("ms")', () => {
    const us = buildFormSchema(firstbank as unknown as SiteConfig, 'en_us', 'edit-profile');
    expect(initialAttributeValues(us.schema, {}, PROFILE).title).toBe('ms');
  });

  it('sends only the keys that changed; an emptied one as null; an untouched address is not sent', () => {
    const initial = { first_name: 'Ana', last_name: 'Souza', phone: '11987654321', address: { street: 'Rua A', number: '10' } };
    expect(changedAttributes(initial, { ...initial, last_name: 'Lima' })).toEqual({ last_name: 'Lima' });
    expect(changedAttributes(initial, { ...initial, phone: undefined })).toEqual({ phone: null });
    expect(changedAttributes(initial, { ...initial, address: { number: '10', street: 'Rua A', additionalInformation: '' } })).toEqual({});
    expect(changedAttributes(initial, { ...initial, address: { street: 'Rua B', number: '10' } })).toEqual({ address: { number: '10', street: 'Rua B' } });
    expect(changedAttributes({}, { address: {} })).toEqual({});
  });

  it('one field of the site form as a form of its own, with its widget; null when the site does not show it', () => {
    const full = buildFormSchema(firstbank as unknown as SiteConfig, 'en_us', 'edit-profile');
    const optIns = singleFieldForm(full, 'marketing_opt_ins');
    expect(Object.keys(optIns?.schema.properties ?? {})).toEqual(['marketing_opt_ins']);
    expect((optIns?.uiSchema.marketing_opt_ins as Record<string, unknown>)['ui:field']).toBe('OptInListField');
    expect(singleFieldForm(full, 'business_type')).toBeNull();
  });
});
