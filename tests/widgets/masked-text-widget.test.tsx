// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonSchema } from '../../schemas/forms/json-schema';
import { backspace, deleteForward, editInput, paste, placeCaret, renderField, typeInto } from './support/render-form';

// SPEC §5: phone, national id and postal code are auto-formatted by the site's mask; the API gets digits.
const PHONE_SCHEMA: JsonSchema = { type: 'string', maxLength: 32, 'x-rule': { name: 'phone', options: { mask: '(00) 00000-0000', locale: 'pt_br' } } };
const PHONE_UI = {
  'ui:widget': 'MaskedTextWidget',
  'ui:autocomplete': 'tel',
  'ui:options': { labelKey: 'label.phone', mask: '(00) 00000-0000', inputMode: 'tel' },
};

afterEach(cleanup);

function renderPhone(value?: string) {
  const onChange = vi.fn();
  renderField('phone', PHONE_SCHEMA, PHONE_UI, { onChange, formData: value === undefined ? undefined : { phone: value } });
  const input = screen.getByLabelText<HTMLInputElement>('Phone number');
  input.focus();
  const stored = () => {
    expect(onChange).toHaveBeenCalled();
    return (onChange.mock.lastCall?.[0] as { phone?: string }).phone;
  };
  return { input, stored };
}

describe('MaskedTextWidget (SPEC §5 masks)', () => {
  it('formats as the person types and stores only the digits', () => {
    const { input, stored } = renderPhone();
    typeInto(input, '11987654321');
    expect(input.value).toBe('(11) 98765-4321');
    expect(stored()).toBe('11987654321');
    expect(input.selectionStart).toBe(input.value.length);
  });

  it('asks for the keyboard and autofill the uiSchema names', () => {
    const { input } = renderPhone();
    expect(input.inputMode).toBe('tel');
    expect(input.autocomplete).toBe('tel');
    expect(input.id).toBe('root_phone');
  });

  it('ignores characters the mask has no slot for', () => {
    const { input, stored } = renderPhone();
    typeInto(input, '1a1');
    expect(input.value).toBe('(11');
    expect(stored()).toBe('11');
  });

  it('keeps the caret next to a digit typed in the middle', () => {
    const { input, stored } = renderPhone('1198765432');
    expect(input.value).toBe('(11) 98765-432');
    placeCaret(input, 6); // "(11) 9|8765-432"
    typeInto(input, '0');
    expect(input.value).toBe('(11) 90876-5432');
    expect(input.selectionStart).toBe(7); // "(11) 90|876-5432"
    expect(stored()).toBe('11908765432');
  });

  it('deletes the digit before a literal when backspace hits the literal in the middle', () => {
    const { input, stored } = renderPhone('11987654321');
    placeCaret(input, 11); // "(11) 98765-|4321"
    backspace(input);
    expect(input.value).toBe('(11) 98764-321');
    expect(input.selectionStart).toBe(9); // "(11) 9876|4-321"
    expect(stored()).toBe('1198764321');
  });

  it('deletes the digit after a literal when delete hits the literal in the middle', () => {
    const { input, stored } = renderPhone('11987654321');
    placeCaret(input, 10); // "(11) 98765|-4321"
    deleteForward(input);
    expect(input.value).toBe('(11) 98765-321');
    expect(input.selectionStart).toBe(10);
    expect(stored()).toBe('1198765321');
  });

  it('lets backspace remove literals at the end one by one', () => {
    const { input } = renderPhone();
    typeInto(input, '(11) ');
    expect(input.value).toBe('(11) ');
    backspace(input);
    expect(input.value).toBe('(11)');
    backspace(input);
    backspace(input);
    expect(input.value).toBe('(1');
  });

  it('takes a pasted formatted number', () => {
    const { input, stored } = renderPhone();
    paste(input, '(11) 98765-4321');
    expect(input.value).toBe('(11) 98765-4321');
    expect(input.selectionStart).toBe(15);
    expect(stored()).toBe('11987654321');
  });

  it('takes pasted digits and formats them', () => {
    const { input, stored } = renderPhone();
    paste(input, '11987654321');
    expect(input.value).toBe('(11) 98765-4321');
    expect(stored()).toBe('11987654321');
  });

  it('puts the caret after the pasted part when pasting in the middle', () => {
    const { input } = renderPhone('1198765');
    placeCaret(input, 5); // "(11) |98765"
    paste(input, '444');
    expect(input.value).toBe('(11) 44498-765');
    expect(input.selectionStart).toBe(8); // after "444"
  });

  it('stores nothing once everything is deleted', () => {
    const { input, stored } = renderPhone('1');
    editInput(input, '', 0, 'deleteContentBackward');
    expect(input.value).toBe('');
    expect(stored()).toBeUndefined();
  });

  it('shows a value set from outside formatted', () => {
    const { input } = renderPhone('11987654321');
    expect(input.value).toBe('(11) 98765-4321');
  });
});
