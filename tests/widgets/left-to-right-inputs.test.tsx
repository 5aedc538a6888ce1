// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildFormSchema } from '../../schemas/forms/build-form-schema';
import type { FormName } from '../../schemas/forms/form-names';
import type { SiteConfig } from '../../schemas/site-config/types';
import { formTextsFromContent } from '../../widgets/form-engine/form-texts';
import { SiteForm } from '../../widgets/SiteForm';
import arQa from '../../fixtures/content/ar_qa.json';
import bancosol from '../../fixtures/sites/bancosol.json';
import dohabank from '../../fixtures/sites/dohabank.json';
import firstbank from '../../fixtures/sites/firstbank.json';
import { TODAY, renderField } from './support/render-form';

// ADR 0013: number-like inputs keep left to right inside a right-to-left page (SPEC §2 page direction);
// the other inputs follow the page. bancosol asks phone, CPF, postal code and date of birth at registration, firstbank a bin.
afterEach(cleanup);

function renderForm(site: unknown, locale: string, form: FormName) {
  const { schema, uiSchema } = buildFormSchema(site as SiteConfig, locale, form);
  render(<SiteForm schema={schema} uiSchema={uiSchema} texts={formTextsFromContent(arQa)} language="ar-QA" today={() => TODAY} onSubmit={() => {}} />);
}

const inputById = (id: string) => {
  const input = document.getElementById(id);
  if (!(input instanceof HTMLInputElement)) throw new Error(`no input #${id}`);
  return input;
};

describe('number-like inputs read left to right in a right-to-left page', () => {
  it('phone, national id, postal code and the date-of-birth parts are dir="ltr"; names and e-mail follow the page', () => {
    renderForm(bancosol, 'ar_qa', 'registration');
    for (const id of ['root_phone', 'root_nationalId', 'root_address_zipcode', 'root_dob', 'root_dob_mm', 'root_dob_yyyy'])
      expect(inputById(id).getAttribute('dir'), id).toBe('ltr');
    for (const id of ['root_first_name', 'root_email']) expect(inputById(id).hasAttribute('dir'), id).toBe(false);
  });

  it('the bin is dir="ltr"', () => {
    renderForm(firstbank, 'ar_qa', 'registration');
    const bin = document.querySelector<HTMLInputElement>('#root_ninedigitbin, #root_bin');
    expect(bin?.getAttribute('dir')).toBe('ltr');
  });

  it('the card number (CardNumberWidget) is dir="ltr" with the numeric keyboard', () => {
    renderField(
      'pan',
      { type: 'string', maxLength: 19 },
      { 'ui:widget': 'CardNumberWidget', 'ui:options': { labelKey: 'label.pan' } },
      { texts: formTextsFromContent(arQa), language: 'ar-QA' },
    );
    const pan = inputById('root_pan');
    expect(pan.getAttribute('dir')).toBe('ltr');
    expect(pan.inputMode).toBe('numeric');
  });

  it('the Arabic site’s phone (mask 0000 0000) is dir="ltr" with the telephone keyboard', () => {
    renderForm(dohabank, 'ar_qa', 'registration');
    const phone = inputById('root_phone');
    expect(phone.getAttribute('dir')).toBe('ltr');
    expect(phone.inputMode).toBe('tel');
  });

  it.each(['otp', 'passcode', 'reset-password'] as const)('the passcode of the %s form is dir="ltr" with the numeric keyboard', (form) => {
    renderForm(dohabank, 'ar_qa', form);
    const code = screen.getAllByRole('textbox').find((input) => input.getAttribute('autocomplete') === 'one-time-code') as HTMLInputElement;
    expect(code.getAttribute('dir')).toBe('ltr');
    expect(code.inputMode).toBe('numeric');
  });
});
