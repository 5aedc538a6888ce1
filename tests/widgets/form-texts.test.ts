import { describe, expect, it } from 'vitest';
import { DEFAULT_FORM_TEXTS, fillPlaceholders, findText, formTextsFromContent, normalisePlaceholders, readableKey, textLookup } from '../../widgets/form-engine/form-texts';
import ptBr from '../../fixtures/content/pt_br.json';

describe('form texts (SPEC §7 content, bundled defaults)', () => {
  it('keeps form keys as they are and prefixes the other groups, as the translator writes label keys', () => {
    const texts = formTextsFromContent({ form: { 'label.dob': 'Data' }, optins: { title: 'Preferências' }, common: { 'button.submit': 'Enviar' } });
    expect(texts).toEqual({ 'label.dob': 'Data', 'optins.title': 'Preferências', 'common.button.submit': 'Enviar' });
  });

  it('answers content first, then the bundled en_us text, then a readable key, never a raw key', () => {
    const text = textLookup(formTextsFromContent(ptBr));
    expect(text('required')).toBe('Este campo é obrigatório.');
    expect(textLookup({})('required')).toBe('This field is required.');
    expect(text('title.mr')).toBe('Sr.');
    expect(textLookup({ required: 'Obrigatório' })('title.mr')).toBe('Mr');
    expect(text('label.favourite_colour')).toBe('Favourite colour');
  });

  // Issue 10: `{product}` (SPEC §3, §8) and `{{id}}` (§3 updateAssetUrl) both work; one form is kept.
  it('normalises {name}, {{name}} and {{ name }} to {{name}}, leaving other braces alone', () => {
    expect(normalisePlaceholders('A valid {product} card at {{ id }} and {{id}}')).toBe('A valid {{product}} card at {{id}} and {{id}}');
    expect(normalisePlaceholders('{} {not a name} {{x}')).toBe('{} {not a name} {{x}');
  });

  it('fills both forms the same way, with spaces inside the braces too', () => {
    expect(fillPlaceholders('{product} / {{product}} / {{ product }}', { product: 'Visa' })).toBe('Visa / Visa / Visa');
    expect(fillPlaceholders('/assets/{{id}}/default', { id: 42 })).toBe('/assets/42/default');
  });

  it('fills {{name}} and {name} placeholders and leaves unknown ones', () => {
    expect(textLookup({})('passwordRulesError', { count: 2 })).toBe("Your password doesn't meet 2 of the requirements below.");
    expect(fillPlaceholders('A valid {product} card, {{missing}}', { product: 'Visa' })).toBe('A valid Visa card, {{missing}}');
  });

  it('has a bundled text for every error key of SPEC §5 and §8', () => {
    for (const key of ['required', 'invalid', 'error', 'invalidCharacter', 'mustMatch', 'passwordRulesError', 'IncompleteFieldError', 'incompleteFormateError', 'invalidAgeError', 'maxAgeError']) {
      expect(DEFAULT_FORM_TEXTS[key], key).toBeTruthy();
    }
  });

  it('never takes an inherited property for a text', () => {
    expect(findText({}, 'constructor')).toBeUndefined();
    expect(readableKey('label.address.additionalInformation')).toBe('Additional information');
  });
});
