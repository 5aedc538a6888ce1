import { describe, expect, it, vi } from 'vitest';
import type { RJSFSchema } from '@rjsf/utils';
import { buildFormSchema } from '../../schemas/forms/build-form-schema';
import { createEvalFreeValidator, localCalendarDay } from '../../widgets/form-engine/eval-free-validator';
import { readSiteFixture } from '../support/site-fixtures';
import { VALID_BANCOSOL_REGISTRATION } from './support/bancosol-registration';

const TODAY = { year: 2026, month: 11, day: 21 };
const { schema: registration, uiSchema } = buildFormSchema(readSiteFixture('bancosol'), 'pt_br', 'registration');
const schema = registration as RJSFSchema;

const validRegistration = VALID_BANCOSOL_REGISTRATION;

describe('createEvalFreeValidator: RJSF ValidatorType on schemas/forms/validate-form (docs/decisions/0006)', () => {
  const validator = createEvalFreeValidator({ today: () => TODAY });

  it('finds nothing wrong with a valid registration', () => {
    expect(validator.validateFormData(validRegistration, schema)).toEqual({ errors: [], errorSchema: {} });
    expect(validator.isValid(schema, validRegistration, schema)).toBe(true);
  });

  it('carries the SPEC §5/§8 key as the error name, its values as params, the field as property', () => {
    const { errors } = validator.validateFormData(
      { ...validRegistration, password: 'short', address: { ...validRegistration.address, zipcode: undefined } },
      schema,
    );
    expect(errors).toEqual([
      { name: 'passwordRulesError', params: { count: 4 }, property: '.password', message: 'passwordRulesError', stack: '.password passwordRulesError' },
      { name: 'mustMatch', params: {}, property: '.confirm_password', message: 'mustMatch', stack: '.confirm_password mustMatch' },
      { name: 'required', params: {}, property: '.address.zipcode', message: 'required', stack: '.address.zipcode required' },
    ]);
  });

  it('builds the error schema with __errors at every field path, nested objects included', () => {
    const { errorSchema } = validator.validateFormData(
      { ...validRegistration, first_name: 'Ana<', address: { ...validRegistration.address, city: '' } },
      schema,
    );
    expect(errorSchema).toEqual({ first_name: { __errors: ['error'] }, address: { city: { __errors: ['required'] } } });
  });

  it('lists errors in screen order (ui:order), nested fields in place', () => {
    const reordered = {
      ...uiSchema,
      'ui:order': ['address', 'pp', 'first_name', ...(uiSchema['ui:order'] as string[]).filter((name) => !['address', 'pp', 'first_name'].includes(name))],
    };
    const { errors } = validator.validateFormData(
      { ...validRegistration, first_name: '', pp: false, address: { ...validRegistration.address, street: '' } },
      schema,
      undefined,
      undefined,
      reordered,
    );
    expect(errors.map((error) => error.property)).toEqual(['.address.street', '.pp', '.first_name']);
  });

  it('passes errors through transformErrors before building the error schema, as RJSF expects', () => {
    const transformErrors = vi.fn((errors: { message?: string }[]) => errors.map((error) => ({ ...error, message: `!${error.message}` })));
    const { errors, errorSchema } = validator.validateFormData({ ...validRegistration, email: '' }, schema, undefined, transformErrors as never, uiSchema);
    expect(transformErrors).toHaveBeenCalledWith(expect.any(Array), uiSchema);
    expect(errors[0]?.message).toBe('!required');
    expect(errorSchema).toEqual({ email: { __errors: ['!required'] } });
  });

  it('adds the errors of a customValidate', () => {
    const { errors, errorSchema } = validator.validateFormData(validRegistration, schema, (data, errorHandler) => {
      if ((data as typeof validRegistration).email.endsWith('@example.com')) errorHandler.email?.addError('taken');
      return errorHandler;
    });
    expect(errorSchema.email?.__errors).toEqual(['taken']);
    expect(errors.map((error) => error.stack)).toEqual(['.email taken']);
  });

  it('asks its today provider at each validation, so the clock is the caller’s', () => {
    let today = { year: 2008, month: 4, day: 11 };
    const clockValidator = createEvalFreeValidator({ today: () => today });
    const turnsEighteenOnApril12 = { ...validRegistration, dob: '1990-04-12' }; // bancosol: dob_min_age 18
    expect(clockValidator.validateFormData(turnsEighteenOnApril12, schema).errors).toEqual([
      expect.objectContaining({ name: 'invalidAgeError', params: { count: 18 }, property: '.dob' }),
    ]);
    today = { year: 2008, month: 4, day: 12 };
    expect(clockValidator.validateFormData(turnsEighteenOnApril12, schema).errors).toEqual([]);
  });

  it('checks a schema of any type with isValid, as RJSF asks for sub-schemas', () => {
    const zipcode = (schema.properties?.address as RJSFSchema).properties?.zipcode as RJSFSchema;
    expect(validator.isValid(zipcode, '01310-100', schema)).toBe(true);
    expect(validator.isValid(zipcode, '0131', schema)).toBe(false);
    expect(validator.isValid({ type: 'boolean' }, 'yes', schema)).toBe(false);
  });

  it('answers rawValidation with the errors only, and none when valid', () => {
    expect(validator.rawValidation(schema, validRegistration)).toEqual({ errors: undefined });
    expect(validator.rawValidation(schema, { ...validRegistration, extra: 1 }).errors).toEqual([
      expect.objectContaining({ name: 'invalid', property: '.extra' }),
    ]);
  });

  it('reads today in the local calendar, not UTC', () => {
    expect(localCalendarDay(new Date(2026, 0, 1, 0, 30))).toEqual({ year: 2026, month: 1, day: 1 });
  });
});
