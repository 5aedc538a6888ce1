import { fireEvent, render } from '@testing-library/react';
import type { JsonSchema, UiSchema } from '../../../schemas/forms/json-schema';
import { SiteForm, type SiteFormProps } from '../../../widgets/SiteForm';

/** The day every widget test computes ages on. */
export const TODAY = { year: 2026, month: 11, day: 21 } as const;

/** A form of one field, as the translator would emit it, drawn by SiteForm. */
export function renderField(name: string, fieldSchema: JsonSchema, fieldUi: UiSchema, options: { required?: boolean } & Partial<SiteFormProps> = {}) {
  const { required = false, ...props } = options;
  const schema: JsonSchema = { type: 'object', properties: { [name]: fieldSchema }, required: required ? [name] : [], additionalProperties: false };
  const uiSchema: UiSchema = { [name]: fieldUi, 'ui:order': [name] };
  const onChange = props.onChange ?? (() => {});
  const onSubmit = props.onSubmit ?? (() => {});
  const view = render(<SiteForm schema={schema} uiSchema={uiSchema} today={() => TODAY} {...props} onChange={onChange} onSubmit={onSubmit} />);
  return { ...view, schema, uiSchema };
}

/**
 * What a browser does on an edit: the input holds `value` with the caret at `caret` (default: the
 * end), then fires `input`. `inputType` tells a deletion's direction, as InputEvent does.
 */
export function editInput(input: HTMLInputElement, value: string, caret = value.length, inputType = 'insertText') {
  fireEvent.input(input, { target: { value, selectionStart: caret, selectionEnd: caret }, inputType });
}

/** Types `text` one character at a time where the caret is, like a person at a keyboard. */
export function typeInto(input: HTMLInputElement, text: string) {
  for (const character of text) {
    const caret = input.selectionStart ?? input.value.length;
    editInput(input, input.value.slice(0, caret) + character + input.value.slice(caret), caret + 1);
  }
}

/** A backspace at the caret. */
export function backspace(input: HTMLInputElement) {
  const caret = input.selectionStart ?? input.value.length;
  editInput(input, input.value.slice(0, caret - 1) + input.value.slice(caret), caret - 1, 'deleteContentBackward');
}

/** A forward delete at the caret. */
export function deleteForward(input: HTMLInputElement) {
  const caret = input.selectionStart ?? input.value.length;
  editInput(input, input.value.slice(0, caret) + input.value.slice(caret + 1), caret, 'deleteContentForward');
}

/** Pastes `text` over the current selection (or at the caret). */
export function paste(input: HTMLInputElement, text: string) {
  const start = input.selectionStart ?? input.value.length;
  const end = input.selectionEnd ?? start;
  editInput(input, input.value.slice(0, start) + text + input.value.slice(end), start + text.length, 'insertFromPaste');
}

export function placeCaret(input: HTMLInputElement, caret: number) {
  input.focus();
  input.setSelectionRange(caret, caret);
}
