// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildFormSchema } from '../../schemas/forms/build-form-schema';
import type { SiteConfig } from '../../schemas/site-config/types';
import { formTextsFromContent } from '../../widgets/form-engine/form-texts';
import { SiteForm } from '../../widgets/SiteForm';
import enUs from '../../fixtures/content/en_us.json';
import firstbank from '../../fixtures/sites/firstbank.json';
import { TODAY, typeInto } from './support/render-form';

afterEach(cleanup);

// SPEC §5 "a bin of set digits", §8 bin errors: the bin field reads its own message, with its length.
describe('a field with its own error text', () => {
  it('shows the bin message with the site bin length after the person leaves the field', () => {
    const { schema, uiSchema } = buildFormSchema(firstbank as unknown as SiteConfig, 'en_us', 'registration');
    render(<SiteForm schema={schema} uiSchema={uiSchema} texts={formTextsFromContent(enUs)} language="en-US" today={() => TODAY} onSubmit={() => {}} />);
    const bin = screen.getByLabelText<HTMLInputElement>(/first 9 digits|bin/i);
    bin.focus();
    typeInto(bin, '5123');
    fireEvent.blur(bin, { relatedTarget: document.body });
    expect(document.getElementById(`${bin.id}__error`)?.textContent).toBe('Please enter the first 9 digits of your card number. It starts with 4.');
  });
});

// SPEC §5 "Generic inputs … Default max length 100" and "Postal code: optional mask … and regexp": a refused
// value is told the rule it broke (the limit with its number, the format with the site's own example), never
// only "Please check this field.", whether the form or the gateway found it.
describe('an error states the rule', () => {
  const editProfile = () => buildFormSchema(firstbank as unknown as SiteConfig, 'en_us', 'edit-profile');
  const errorOf = (input: HTMLElement) => document.getElementById(`${input.id}__error`)?.textContent;

  it('gives the length limit of a 120-character last name and the example of a four-digit ZIP code', () => {
    const { schema, uiSchema } = editProfile();
    render(<SiteForm schema={schema} uiSchema={uiSchema} texts={formTextsFromContent(enUs)} language="en-US" today={() => TODAY} onSubmit={() => {}} />);
    const lastName = screen.getByLabelText<HTMLInputElement>(/last name/i);
    fireEvent.change(lastName, { target: { value: 'C'.repeat(120) } });
    fireEvent.blur(lastName, { relatedTarget: document.body });
    expect(errorOf(lastName)).toBe('Enter no more than 100 characters.');
    const zip = screen.getByLabelText<HTMLInputElement>(/zip/i);
    zip.focus();
    typeInto(zip, '1234');
    fireEvent.blur(zip, { relatedTarget: document.body });
    expect(errorOf(zip)).toBe('Enter it like \u206610001\u2069.');
  });

  it('says the same for the codes the gateway answers (VALIDATION_FAILED fields tooLong and invalid)', () => {
    const { schema, uiSchema } = editProfile();
    const formData = { last_name: 'C'.repeat(120), address: { zipcode: '1234' } };
    render(
      <SiteForm
        schema={schema}
        uiSchema={uiSchema}
        texts={formTextsFromContent(enUs)}
        language="en-US"
        today={() => TODAY}
        formData={formData}
        serverErrors={{ last_name: 'tooLong', 'address.zipcode': 'invalid' }}
        onSubmit={() => {}}
      />,
    );
    expect(errorOf(screen.getByLabelText(/last name/i))).toBe('Enter no more than 100 characters.');
    expect(errorOf(screen.getByLabelText(/zip/i))).toBe('Enter it like \u206610001\u2069.');
  });
});
