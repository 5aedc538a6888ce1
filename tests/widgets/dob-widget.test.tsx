// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonSchema } from '../../schemas/forms/json-schema';
import { renderField } from './support/render-form';

afterEach(cleanup);

function renderDob(dateFormat: string, formData?: Record<string, unknown>) {
  const schema: JsonSchema = { type: 'string', maxLength: 10, 'x-rule': { name: 'dob', options: { dateFormat, minAge: 18 } } };
  const ui = { 'ui:widget': 'DobWidget', 'ui:autocomplete': 'bday', 'ui:options': { labelKey: 'label.dob', dateFormat } };
  const onChange = vi.fn();
  const view = renderField('dob', schema, ui, { required: true, onChange, formData });
  const group = screen.getByRole('group', { name: /Date of birth/ });
  const parts = within(group).getAllByRole<HTMLInputElement>('textbox');
  const stored = () => (onChange.mock.lastCall?.[0] as { dob?: string } | undefined)?.dob;
  return { ...view, group, parts, stored };
}

const labelsOf = (parts: HTMLInputElement[]) => parts.map((part) => part.labels?.[0]?.textContent);

describe('DobWidget (SPEC §5 date of birth)', () => {
  it.each([
    ['DD/MM/YYYY', ['Day', 'Month', 'Year']],
    ['MM-DD-YYYY', ['Month', 'Day', 'Year']],
    ['YYYY-MM-DD', ['Year', 'Month', 'Day']],
  ])('shows the parts in the order of date_format %s', (dateFormat, labels) => {
    const { parts } = renderDob(dateFormat);
    expect(labelsOf(parts)).toEqual(labels);
  });

  it('is a fieldset named by the field label, its first part carrying the field id', () => {
    const { group, parts } = renderDob('DD/MM/YYYY');
    expect(group.tagName).toBe('FIELDSET');
    expect(parts[0]?.id).toBe('root_dob');
    expect(parts.every((part) => part.inputMode === 'numeric')).toBe(true);
  });

  it('stores YYYY-MM-DD whatever the order, and "" when every part is empty', () => {
    const { parts, stored } = renderDob('DD/MM/YYYY');
    const [day, month, year] = parts as [HTMLInputElement, HTMLInputElement, HTMLInputElement];
    fireEvent.change(day, { target: { value: '12' } });
    fireEvent.change(month, { target: { value: '04' } });
    fireEvent.change(year, { target: { value: '1990' } });
    expect(stored()).toBe('1990-04-12');
    fireEvent.change(day, { target: { value: '' } });
    fireEvent.change(month, { target: { value: '' } });
    fireEvent.change(year, { target: { value: '' } });
    expect(stored()).toBeUndefined();
  });

  it('writes a one-digit day and month as two when focus leaves the date (SPEC §9 YYYY-MM-DD)', () => {
    const { parts, stored } = renderDob('DD/MM/YYYY');
    const [day, month, year] = parts as [HTMLInputElement, HTMLInputElement, HTMLInputElement];
    fireEvent.change(day, { target: { value: '1' } });
    fireEvent.blur(day, { relatedTarget: month });
    expect(day.value).toBe('1');
    fireEvent.change(month, { target: { value: '1' } });
    fireEvent.change(year, { target: { value: '1980' } });
    expect(stored()).toBe('1980-1-1');
    fireEvent.blur(year, { relatedTarget: null });
    expect(stored()).toBe('1980-01-01');
    expect(parts.map((part) => part.value)).toEqual(['01', '01', '1980']);
  });

  it('keeps digits only, at most the part length', () => {
    const { parts } = renderDob('YYYY-MM-DD');
    const year = parts[0] as HTMLInputElement;
    fireEvent.change(year, { target: { value: '19a905' } });
    expect(year.value).toBe('1990');
  });

  it('reads digits typed on an Arabic or Persian keyboard as Latin digits (ADR 0013)', () => {
    const { parts, stored } = renderDob('DD/MM/YYYY');
    const [day, month, year] = parts as [HTMLInputElement, HTMLInputElement, HTMLInputElement];
    fireEvent.change(day, { target: { value: '١٢' } });
    fireEvent.change(month, { target: { value: '۰۴' } });
    fireEvent.change(year, { target: { value: '١٩٩٠' } });
    expect(stored()).toBe('1990-04-12');
    expect(year.value).toBe('1990');
  });

  it('shows a saved date in its parts', () => {
    const { parts } = renderDob('MM-DD-YYYY', { dob: '1985-07-30' });
    expect(parts.map((part) => part.value)).toEqual(['07', '30', '1985']);
  });

  it('waits until focus leaves the whole date before saying it is incomplete', () => {
    const { parts, container } = renderDob('DD/MM/YYYY');
    const [day, month] = parts as [HTMLInputElement, HTMLInputElement];
    fireEvent.change(day, { target: { value: '12' } });
    fireEvent.blur(day, { relatedTarget: month });
    expect(screen.queryByText('Please enter your full date of birth.')).toBeNull();

    fireEvent.blur(month, { relatedTarget: container.querySelector('button[type="submit"]') });
    expect(screen.getByText('Please enter your full date of birth.')).toBeTruthy();
    expect(parts.every((part) => part.getAttribute('aria-invalid') === 'true')).toBe(true);
    expect(day.getAttribute('aria-describedby')).toBe('root_dob__error');
  });

  it('moves on when a part is complete, in the site order; the last part stays', () => {
    const { parts, stored } = renderDob('MM-DD-YYYY');
    const [month, day, year] = parts as [HTMLInputElement, HTMLInputElement, HTMLInputElement];
    month.focus();
    fireEvent.change(month, { target: { value: '0' } });
    expect(document.activeElement).toBe(month);
    fireEvent.change(month, { target: { value: '04' } });
    expect(document.activeElement).toBe(day);
    fireEvent.change(day, { target: { value: '12' } });
    expect(document.activeElement).toBe(year);
    fireEvent.change(year, { target: { value: '1988' } });
    expect(document.activeElement).toBe(year);
    expect(stored()).toBe('1988-04-12');
  });

  it('a complete part typed into again (not grown to its length) does not move the focus', () => {
    const { parts } = renderDob('DD/MM/YYYY', { dob: '1990-04-12' });
    const [day] = parts as [HTMLInputElement];
    day.focus();
    fireEvent.change(day, { target: { value: '13' } });
    expect(document.activeElement).toBe(day);
  });

  it('Backspace in an empty part goes back to the end of the part before; in a filled part it only deletes', () => {
    const { parts } = renderDob('DD/MM/YYYY', { dob: '-04-12' });
    const [day, month, year] = parts as [HTMLInputElement, HTMLInputElement, HTMLInputElement];
    year.focus();
    fireEvent.keyDown(year, { key: 'Backspace' });
    expect(document.activeElement).toBe(month);
    expect(month.selectionStart).toBe(2);
    fireEvent.keyDown(month, { key: 'Backspace' });
    expect(document.activeElement).toBe(month);
    day.focus();
    fireEvent.keyDown(day, { key: 'Backspace' });
    expect(document.activeElement).toBe(day);
  });

  it('says how old a person must be (SPEC §5 invalidAgeError) with the site minimum', () => {
    const { parts, container } = renderDob('DD/MM/YYYY', { dob: '2015-01-01' });
    fireEvent.blur(parts[2] as HTMLInputElement, { relatedTarget: container.querySelector('button[type="submit"]') });
    expect(screen.getByText('You must be at least 18 years old.')).toBeTruthy();
  });
});
