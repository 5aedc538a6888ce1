import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FORM_TEXTS,
  fillPlaceholders,
  findText,
  formTextsFromContent,
  normalisePlaceholders,
  readableKey,
  textLookup,
} from '../../widgets/form-engine/form-texts';
import arQa from '../../fixtures/content/ar_qa.json';
import ptBr from '../../fixtures/content/pt_br.json';

describe('form texts (SPEC §7 content, bundled defaults)', () => {
  it('keeps form keys as they are and prefixes the other groups, as the translator writes label keys', () => {
    const texts = formTextsFromContent({ form: { 'label.dob': 'Data' }, optins: { title: 'Preferências' }, common: { 'button.submit': 'Enviar' } });
    expect(texts).toEqual({ 'label.dob': 'Data', 'optins.title': 'Preferências', 'common.button.submit': 'Enviar' });
  });

  it('answers content first, then the bundled en_us text, then a readable key, never a raw key', () => {
    const text = textLookup(formTextsFromContent(ptBr), 'pt-BR');
    expect(text('required')).toBe('Este campo é obrigatório.');
    expect(textLookup({}, 'en-US')('required')).toBe('This field is required.');
    expect(text('title.mr')).toBe('Sr.');
    expect(textLookup({ required: 'Obrigatório' }, 'en-US')('title.mr')).toBe('Mr');
    expect(text('label.favourite_colour')).toBe('Favourite colour');
  });

  // ADR 0013 "Placeholders": `{product}` (SPEC §3, §8) and `{{id}}` (§3 updateAssetUrl) both work; one form is kept.
  it('normalises {name}, {{name}} and {{ name }} to {{name}}, leaving other braces alone', () => {
    expect(normalisePlaceholders('A valid {product} card at {{ id }} and {{id}}')).toBe('A valid {{product}} card at {{id}} and {{id}}');
    expect(normalisePlaceholders('{} {not a name} {{x}')).toBe('{} {not a name} {{x}');
  });

  it('fills both forms the same way, with spaces inside the braces too', () => {
    expect(fillPlaceholders('{product} / {{product}} / {{ product }}', { product: 'Visa' })).toBe('Visa / Visa / Visa');
    expect(fillPlaceholders('/assets/{{id}}/default', { id: 42 })).toBe('/assets/42/default');
  });

  it('fills {{name}} and {name} placeholders and leaves unknown ones', () => {
    expect(textLookup({}, 'en-US')('passwordRulesError', { count: 2 })).toBe("Your password doesn't meet 2 of the requirements below.");
    expect(fillPlaceholders('A valid {product} card, {{missing}}', { product: 'Visa' })).toBe('A valid Visa card, {{missing}}');
  });

  it('has a bundled text for every error key of SPEC §5 and §8', () => {
    for (const key of [
      'required',
      'invalid',
      'error',
      'invalidCharacter',
      'mustMatch',
      'passwordRulesError',
      'IncompleteFieldError',
      'incompleteFormateError',
      'invalidAgeError',
      'maxAgeError',
    ]) {
      // A counted text (ADR 0013) is there as its `other` form.
      expect(DEFAULT_FORM_TEXTS[key] ?? DEFAULT_FORM_TEXTS[`${key}.other`], key).toBeTruthy();
    }
  });

  // ADR 0013 "Counted texts": the form of the count in the page's language, the number as it writes numbers.
  it('shows a counted text in the form for its count, with the number in the page language', () => {
    const arabic = textLookup(formTextsFromContent(arQa), 'ar-QA');
    expect(arabic('invalidAgeError', { count: 1 })).toBe('يجب ألا يقل عمرك عن عام واحد.');
    expect(arabic('invalidAgeError', { count: 2 })).toBe('يجب ألا يقل عمرك عن عامين.');
    expect(arabic('invalidAgeError', { count: 3 })).toBe('يجب ألا يقل عمرك عن 3 أعوام.');
    expect(arabic('invalidAgeError', { count: 18 })).toBe('يجب ألا يقل عمرك عن 18 عامًا.');
    expect(arabic('invalidAgeError', { count: 100 })).toBe('يجب ألا يقل عمرك عن 100 عام.');
    const english = textLookup({}, 'en-US');
    expect(english('invalidAgeError', { count: 1 })).toBe('You must be at least 1 year old.');
    expect(english('invalidAgeError', { count: 1000 })).toBe('You must be at least 1,000 years old.');
    expect(english('passwordRules.status', { met: 1, count: 1 })).toBe('1 of 1 password requirement met');
    // Without a numeric count the `other` form shows, never a readable key.
    expect(english('invalidAgeError')).toBe('You must be at least {{count}} years old.');
  });

  it('never takes an inherited property for a text', () => {
    expect(findText({}, 'constructor')).toBeUndefined();
    expect(readableKey('label.address.additionalInformation')).toBe('Additional information');
  });
});
