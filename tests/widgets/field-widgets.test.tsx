// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonSchema } from '../../schemas/forms/json-schema';
import { formTextsFromContent } from '../../widgets/form-engine/form-texts';
import ptBr from '../../fixtures/content/pt_br.json';
import { editInput, renderField, typeInto } from './support/render-form';

afterEach(cleanup);

const lastData = (onChange: ReturnType<typeof vi.fn>) => onChange.mock.lastCall?.[0] as Record<string, unknown>;

describe('FieldTemplate', () => {
  const NAME_SCHEMA: JsonSchema = { type: 'string', maxLength: 100, 'x-rule': { name: 'name' } };
  const NAME_UI = { 'ui:autocomplete': 'given-name', 'ui:options': { labelKey: 'label.first_name' } };

  it('labels the input from content, marks it required, and ties its error to it', () => {
    renderField('first_name', NAME_SCHEMA, NAME_UI, { required: true });
    const input = screen.getByLabelText<HTMLInputElement>(/First name/);
    expect(input.id).toBe('root_first_name');
    expect(input.required).toBe(true);
    expect(input.labels?.[0]?.querySelector('.field__required')?.getAttribute('aria-hidden')).toBe('true');

    fireEvent.blur(input);
    const error = screen.getByText('This field is required.');
    expect(error.id).toBe('root_first_name__error');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('root_first_name__error');
  });

  it('uses the site language from content', () => {
    renderField('first_name', NAME_SCHEMA, NAME_UI, { required: true, texts: formTextsFromContent(ptBr) });
    const input = screen.getByLabelText(/Nome/);
    fireEvent.blur(input);
    expect(screen.getByText('Este campo é obrigatório.')).toBeTruthy();
  });

  it('has no tooltip unless content has one for the label', () => {
    renderField('first_name', NAME_SCHEMA, NAME_UI);
    expect(screen.queryByRole('button', { name: /More about/ })).toBeNull();
  });

  describe('tooltip', () => {
    const texts = { 'label.first_name.tooltip': 'As printed on your card.' };

    it('is a button that opens and closes its hint and says which it is', () => {
      renderField('first_name', NAME_SCHEMA, NAME_UI, { texts });
      const button = screen.getByRole('button', { name: 'More about First name' });
      const hint = screen.getByRole('tooltip', { hidden: true });
      expect(hint.textContent).toBe('As printed on your card.');
      expect(button.getAttribute('aria-describedby')).toBe(hint.id);
      expect(button.getAttribute('aria-expanded')).toBe('false');
      expect(hint.hidden).toBe(true);

      fireEvent.click(button);
      expect(button.getAttribute('aria-expanded')).toBe('true');
      expect(hint.hidden).toBe(false);
      fireEvent.click(button);
      expect(hint.hidden).toBe(true);
    });

    it('is reached with the keyboard and closed with Escape or by leaving it', () => {
      renderField('first_name', NAME_SCHEMA, NAME_UI, { texts });
      const button = screen.getByRole('button', { name: 'More about First name' });
      button.focus();
      expect(document.activeElement).toBe(button);
      expect(button.getAttribute('type')).toBe('button'); // Enter and Space activate it; it never submits

      fireEvent.click(button);
      fireEvent.keyDown(button, { key: 'Escape' });
      expect(button.getAttribute('aria-expanded')).toBe('false');

      fireEvent.click(button);
      fireEvent.blur(button, { relatedTarget: document.body });
      expect(button.getAttribute('aria-expanded')).toBe('false');
    });
  });
});

describe('SelectWidget', () => {
  const TITLE_SCHEMA: JsonSchema = { type: 'string', enum: ['mr', 'ms'] };
  const TITLE_UI = { 'ui:widget': 'select', 'ui:options': { labelKey: 'label.title', enumKeyPrefix: 'title.' } };

  it('starts on an empty "choose" option and names options from content', () => {
    const onChange = vi.fn();
    renderField('title', TITLE_SCHEMA, TITLE_UI, { onChange, texts: { 'title.mr': 'Mr.', 'title.ms': 'Ms.', 'select.choose': 'Select one' } });
    const select = screen.getByLabelText<HTMLSelectElement>('Title');
    expect([...select.options].map((option) => option.text)).toEqual(['Select one', 'Mr.', 'Ms.']);
    expect(select.value).toBe('');
    fireEvent.change(select, { target: { value: 'ms' } });
    expect(lastData(onChange).title).toBe('ms');
  });

  describe('where the language gives two values one word (German "Frau" for Mrs and Ms)', () => {
    const TITLES: JsonSchema = { type: 'string', enum: ['mr', 'mrs', 'ms'] };
    const GERMAN = { 'title.mr': 'Herr', 'title.mrs': 'Frau', 'title.ms': 'Frau', 'select.choose': 'Bitte wählen' };

    it('offers the word once', () => {
      renderField('title', TITLES, TITLE_UI, { texts: GERMAN });
      const select = screen.getByLabelText<HTMLSelectElement>('Title');
      expect([...select.options].map((option) => [option.value, option.text])).toEqual([
        ['', 'Bitte wählen'],
        ['mr', 'Herr'],
        ['mrs', 'Frau'],
      ]);
    });

    it('keeps the value a profile already holds, in its place', () => {
      renderField('title', TITLES, TITLE_UI, { texts: GERMAN, formData: { title: 'ms' } });
      const select = screen.getByLabelText<HTMLSelectElement>('Title');
      expect([...select.options].map((option) => option.value)).toEqual(['', 'mr', 'ms']);
      expect(select.value).toBe('ms');
    });
  });

  it('shows only the required message when nothing is chosen (SPEC §5 selects)', () => {
    renderField('title', TITLE_SCHEMA, TITLE_UI, { required: true });
    fireEvent.blur(screen.getByLabelText(/Title/));
    expect(screen.getByText('This field is required.')).toBeTruthy();
  });
});

describe('CountryWidget', () => {
  const COUNTRY_SCHEMA: JsonSchema = { type: 'string', pattern: '^[A-Z]{2}$' };
  const COUNTRY_UI = { 'ui:widget': 'CountryWidget', 'ui:autocomplete': 'country', 'ui:options': { labelKey: 'label.country' } };

  it('lists ISO 3166 codes by their names in the page language and stores the code', () => {
    const onChange = vi.fn();
    renderField('country', COUNTRY_SCHEMA, COUNTRY_UI, { onChange, language: 'pt-BR' });
    const select = screen.getByLabelText<HTMLSelectElement>('Country');
    expect(select.options).toHaveLength(250);
    const germany = [...select.options].find((option) => option.value === 'DE');
    expect(germany?.text).toBe('Alemanha');
    fireEvent.change(select, { target: { value: 'BR' } });
    expect(lastData(onChange).country).toBe('BR');
  });

  it.each([
    ['pt-BR', 'BR', 'Brasil'],
    ['ar-QA', 'QA', 'قطر'],
    ['en-US', 'US', 'United States'],
  ])("%s: the site's own country comes first, the others in the language's order", (language, code, name) => {
    renderField('country', COUNTRY_SCHEMA, COUNTRY_UI, { language });
    const countries = [...screen.getByLabelText<HTMLSelectElement>('Country').options].filter((option) => option.value !== '');
    expect([countries[0]?.value, countries[0]?.text]).toEqual([code, name]);
    const rest = countries.slice(1).map((option) => option.text);
    expect(rest).toEqual([...rest].sort(new Intl.Collator([language, 'en']).compare));
    expect(rest).toHaveLength(countries.length - 1);
  });
});

describe('CheckboxWidget', () => {
  it('is a checkbox labelled from content that stores true or false', () => {
    const onChange = vi.fn();
    renderField('email_optin', { type: 'boolean', default: false }, { 'ui:widget': 'checkbox', 'ui:options': { labelKey: 'label.email_optin' } }, { onChange });
    const checkbox = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Send me emails about offers' });
    expect(checkbox.id).toBe('root_email_optin');
    fireEvent.click(checkbox);
    expect(lastData(onChange).email_optin).toBe(true);
  });
});

describe('PrivacyPolicyWidget (SPEC §5 privacy_policy_display)', () => {
  const ui = (display: string) => ({ 'ui:widget': 'PrivacyPolicyWidget', 'ui:options': { labelKey: 'label.pp', display } });

  it('A: a required box that starts unticked and must be ticked', () => {
    renderField('pp', { type: 'boolean', const: true }, ui('A'), { required: true });
    const checkbox = screen.getByRole<HTMLInputElement>('checkbox', { name: /I have read and accept the Privacy Policy/ });
    expect(checkbox.checked).toBe(false);
    expect(checkbox.required).toBe(true);
    fireEvent.blur(checkbox);
    expect(screen.getByText('This field is required.')).toBeTruthy();
  });

  it('B: an optional box whose label says so, not the "read and accept" of A that reads as a condition', () => {
    renderField('pp', { type: 'boolean', default: false }, ui('B'));
    const checkbox = screen.getByRole<HTMLInputElement>('checkbox', {
      name: 'Optional: I have read the Privacy Policy. You can create your account without ticking this box.',
    });
    expect(checkbox.required).toBe(false);
  });

  it('C: the policy notice, nothing to tick', () => {
    renderField('pp', { type: 'boolean', default: false }, ui('C'));
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.getByText('By creating an account you accept our privacy policy.').id).toBe('root_pp');
  });

  it.each(['A', 'B', 'C'])("%s: links to the site's policy (privacy_policy_url) in a new tab, so the form is kept", (display) => {
    const withUrl = { 'ui:widget': 'PrivacyPolicyWidget', 'ui:options': { labelKey: 'label.pp', display, policyUrl: 'https://www.firstbank.example/privacy' } };
    renderField('pp', { type: 'boolean', default: false }, withUrl);
    const link = screen.getByRole('link', { name: 'Read the privacy policy (opens in a new tab)' });
    expect(link.getAttribute('href')).toBe('https://www.firstbank.example/privacy');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });
});

describe('OfferCategoriesWidget', () => {
  const SCHEMA: JsonSchema = { type: 'array', items: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' }, uniqueItems: true, maxItems: 50 };
  const UI = { 'ui:widget': 'OfferCategoriesWidget', 'ui:options': { labelKey: 'label.offers_preference' } };
  const offerCategories = [
    { id: 'travel', name: 'Travel' },
    { id: 'dining', name: 'Dining' },
    { id: 'shopping', name: 'Shopping' },
  ];

  it('offers a checkbox per loaded category and stores the ticked ids in category order', () => {
    const onChange = vi.fn();
    renderField('offers_preference', SCHEMA, UI, { onChange, offerCategories });
    const group = screen.getByRole('group', { name: "Offer categories I'm interested in" });
    const boxes = within(group).getAllByRole('checkbox');
    expect(boxes.map((box) => (box as HTMLInputElement).labels?.[0]?.textContent)).toEqual(['Travel', 'Dining', 'Shopping']);
    expect(boxes[0]?.id).toBe('root_offers_preference');
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Shopping' }));
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Travel' }));
    expect(lastData(onChange).offers_preference).toEqual(['travel', 'shopping']);
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Travel' }));
    expect(lastData(onChange).offers_preference).toEqual(['shopping']);
  });
});

describe('CardNumberWidget (SPEC §5 card number)', () => {
  const SCHEMA: JsonSchema = { type: 'string', maxLength: 19, 'x-rule': { name: 'cardNumber' } };
  const UI = { 'ui:widget': 'CardNumberWidget', 'ui:options': { labelKey: 'label.pan' } };

  it('groups digits in fours as they are typed, up to 16 digits', () => {
    const onChange = vi.fn();
    renderField('pan', SCHEMA, UI, { onChange });
    const input = screen.getByLabelText<HTMLInputElement>('Card number');
    expect(input.inputMode).toBe('numeric');
    expect(input.autocomplete).toBe('cc-number');
    expect(input.maxLength).toBe(19);
    input.focus();
    typeInto(input, '41111111111111119');
    expect(input.value).toBe('4111 1111 1111 1111');
    expect(lastData(onChange).pan).toBe('4111 1111 1111 1111');
  });

  it('keeps the caret by the digit typed in the middle', () => {
    renderField('pan', SCHEMA, UI, { formData: { pan: '4111 1111' } });
    const input = screen.getByLabelText<HTMLInputElement>('Card number');
    input.focus();
    input.setSelectionRange(4, 4); // "4111| 1111"
    editInput(input, '41112 1111', 5);
    expect(input.value).toBe('4111 2111 1');
    expect(input.selectionStart).toBe(6); // "4111 2|111 1"
  });
});
