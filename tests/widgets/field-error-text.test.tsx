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
