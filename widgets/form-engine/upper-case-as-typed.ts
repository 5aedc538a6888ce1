import { upperCaseLetters } from '../../schemas/forms/normalise-form-data';

/**
 * Upper-cases the letters of an input as the person types (`national_id_uppercase`,
 * `postal_code_uppercase`; the gateway applies the same `upperCaseLetters` before it validates).
 * The input is rewritten before React renders the new value, with the selection where it was
 * (upper-casing ASCII keeps the length), so the caret never jumps to the end.
 */
export function upperCaseAsTyped(input: HTMLInputElement): string {
  const typed = input.value;
  const upper = upperCaseLetters(typed);
  if (upper === typed) return typed;
  const { selectionStart, selectionEnd } = input;
  input.value = upper;
  if (selectionStart !== null && selectionEnd !== null) input.setSelectionRange(selectionStart, selectionEnd);
  return upper;
}
