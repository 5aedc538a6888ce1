import { upperCaseLetters } from '../../schemas/forms/normalise-form-data';
import { applyMask, unmask } from '../../schemas/site-config/mask';
import { CARD_NUMBER_DIGITS, formatCardNumber } from '../../schemas/validators';

/**
 * Caret-aware auto-formatting (SPEC §5: phone, national id, postal code and card number are
 * "auto-formatted as typed"). Pure: the widgets hand in what the input holds after an edit and
 * get back the text to show and where the caret goes. The caret is placed by counting the slot
 * characters (digits, letters) before it, so it stays next to the character the person typed,
 * deleted or pasted, however many literals the format adds or drops around it.
 */
export interface TextFormat {
  /** The text to show for whatever was typed. */
  format(typed: string): string;
  /** The characters of `typed` that the format keeps (its value without separators). */
  slotCharacters: (typed: string) => string;
}

export type DeleteDirection = 'backward' | 'forward';

export interface FormattedEdit {
  text: string;
  caret: number;
}

/** `uppercase`: the site asks for its letters in upper case (`upperCaseLetters`, as the gateway normalises). */
export function maskFormat(mask: string, uppercase = false): TextFormat {
  const normalise = uppercase ? upperCaseLetters : (typed: string) => typed;
  return { format: (typed) => applyMask(mask, normalise(typed)), slotCharacters: (typed) => unmask(mask, normalise(typed)) };
}

/** SPEC §5 card number: digits in groups of four, 16 at most. */
export const CARD_NUMBER_FORMAT: TextFormat = {
  format: formatCardNumber,
  slotCharacters: (typed) => typed.replace(/[^0-9]/g, '').slice(0, CARD_NUMBER_DIGITS),
};

/** The caret index just after the `count`-th slot character of `text`. */
export function caretAfterSlots(format: TextFormat, text: string, count: number): number {
  if (count <= 0) return 0;
  for (let index = 1; index <= text.length; index++) {
    if (format.slotCharacters(text.slice(0, index)).length >= count) return index;
  }
  return text.length;
}

/**
 * `previous` is what the input showed, `edited` what it holds after the edit, `caret` where the
 * browser left the caret. A deletion that only removed separators the format puts straight back
 * ("(11) 98|765" backspace over a literal in the middle) also removes the slot character beyond
 * them in the direction of the deletion, so the key never looks dead.
 */
export function editFormattedText(format: TextFormat, previous: string, edited: string, caret: number, direction: DeleteDirection = 'backward'): FormattedEdit {
  const slotsBeforeCaret = format.slotCharacters(edited.slice(0, caret)).length;
  const text = format.format(edited);
  if (edited.length < previous.length && text === previous) {
    const slots = format.slotCharacters(edited);
    const removed = direction === 'backward' ? slotsBeforeCaret - 1 : slotsBeforeCaret;
    if (removed >= 0 && removed < slots.length) {
      const shorter = format.format(slots.slice(0, removed) + slots.slice(removed + 1));
      return { text: shorter, caret: caretAfterSlots(format, shorter, removed) };
    }
  }
  // Typing or pasting at the end keeps the caret at the end, after any separator just typed.
  const atEnd = caret >= edited.length;
  return { text, caret: atEnd ? text.length : caretAfterSlots(format, text, slotsBeforeCaret) };
}

/** Which way a deletion went, from the browser's InputEvent; backspace when the browser does not say. */
export function deleteDirectionOf(nativeEvent: Event): DeleteDirection {
  const inputType = (nativeEvent as Partial<InputEvent>).inputType;
  return inputType === 'deleteContentForward' ? 'forward' : 'backward';
}
