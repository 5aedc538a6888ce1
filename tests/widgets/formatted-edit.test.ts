import { describe, expect, it } from 'vitest';
import { CARD_NUMBER_FORMAT, caretAfterSlots, editFormattedText, maskFormat } from '../../widgets/form-engine/formatted-edit';

// SPEC §5 masks: the grammar of docs/decisions/0001 ("0" digit, "A" letter, "*" either).
const phone = maskFormat('(00) 00000-0000');
const cpf = maskFormat('000.000.000-00');

describe('editFormattedText: caret from the count of slot characters before it', () => {
  it('formats typing at the end and keeps the caret at the end', () => {
    expect(editFormattedText(phone, '(11', '(119', 4)).toEqual({ text: '(11) 9', caret: 6 });
    expect(editFormattedText(cpf, '123.456.78', '123.456.789', 11)).toEqual({ text: '123.456.789', caret: 11 });
  });

  it('keeps the caret after a character inserted in the middle', () => {
    expect(editFormattedText(cpf, '123.456.789-09', '1235.456.789-09', 4)).toEqual({ text: '123.545.678-90', caret: 5 });
  });

  it('removes the slot character beyond a literal the format would put back', () => {
    expect(editFormattedText(cpf, '123.456.789-09', '123456.789-09', 3, 'backward')).toEqual({ text: '124.567.890-9', caret: 2 });
    expect(editFormattedText(cpf, '123.456.789-09', '123456.789-09', 3, 'forward')).toEqual({ text: '123.567.890-9', caret: 3 });
  });

  it('lets a trailing literal go on its own', () => {
    expect(editFormattedText(phone, '(11) ', '(11)', 4)).toEqual({ text: '(11)', caret: 4 });
  });

  it('takes a paste, formatted or bare, and drops what does not fit', () => {
    expect(editFormattedText(phone, '', '(11) 98765-4321', 15)).toEqual({ text: '(11) 98765-4321', caret: 15 });
    expect(editFormattedText(phone, '', '11 98765 4321 99', 16)).toEqual({ text: '(11) 98765-4321', caret: 15 });
  });

  it('puts the caret back where it was when a refused character is typed', () => {
    expect(editFormattedText(phone, '(11) 98', '(11) 9x8', 7)).toEqual({ text: '(11) 98', caret: 6 });
  });

  it('works the same for the card number format', () => {
    expect(editFormattedText(CARD_NUMBER_FORMAT, '4111 1111', '4111 21111', 6)).toEqual({ text: '4111 2111 1', caret: 6 });
    expect(editFormattedText(CARD_NUMBER_FORMAT, '4111 1111', '41111111', 4, 'backward')).toEqual({ text: '4111 111', caret: 3 });
  });
});

describe('caretAfterSlots', () => {
  it('is the index just after the n-th slot character', () => {
    expect(caretAfterSlots(phone, '(11) 98765-4321', 0)).toBe(0);
    expect(caretAfterSlots(phone, '(11) 98765-4321', 2)).toBe(3);
    expect(caretAfterSlots(phone, '(11) 98765-4321', 3)).toBe(6);
    expect(caretAfterSlots(phone, '(11) 98765-4321', 99)).toBe(15);
  });
});
