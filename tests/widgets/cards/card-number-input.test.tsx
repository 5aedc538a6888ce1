// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { CardNumberInput } from '../../../widgets/cards/CardNumberInput';
import { renderField } from '../support/render-form';

afterEach(cleanup);

function Controlled({ maxLength, error }: { maxLength?: number; error?: string }) {
  const [value, setValue] = useState('');
  return <CardNumberInput id="pan" label="Card number" value={value} onChange={setValue} maxLength={maxLength} error={error} />;
}

function input(): HTMLInputElement {
  return screen.getByLabelText<HTMLInputElement>('Card number');
}

function paste(text: string) {
  fireEvent.paste(input(), { clipboardData: { getData: () => text } });
}

describe('SPEC §5 card number input', () => {
  it('formats in groups of four as typed', () => {
    render(<Controlled />);
    fireEvent.change(input(), { target: { value: '41111' } });
    expect(input().value).toBe('4111 1');
    fireEvent.change(input(), { target: { value: '4111 11111111111199' } });
    expect(input().value).toBe('4111 1111 1111 1111');
  });

  it.each(['4111-1111-1111-1111', '4111111111111111', ' 4111 - 1111 - 1111 - 1111 '])('a paste of "%s" shows 4111 1111 1111 1111', (pasted) => {
    render(<Controlled />);
    paste(pasted);
    expect(input().value).toBe('4111 1111 1111 1111');
  });

  it('caps the input at 19 characters by default, at the configured maxLength otherwise', () => {
    render(<Controlled />);
    expect(input().maxLength).toBe(19);
    cleanup();
    render(<Controlled maxLength={16} />);
    expect(input().maxLength).toBe(16);
    paste('4111111111111111');
    expect(input().value).toBe('4111 1111 1111 1');
  });

  it('takes digits only, with a numeric keyboard and card autocomplete', () => {
    render(<Controlled />);
    fireEvent.change(input(), { target: { value: '41a1' } });
    expect(input().value).toBe('411');
    expect(input().inputMode).toBe('numeric');
    expect(input().autocomplete).toBe('cc-number');
  });

  it('an error is shown next to the field, announced and linked by aria-describedby', () => {
    render(<Controlled error="A valid FirstBank card is required" />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('A valid FirstBank card is required');
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect(input().getAttribute('aria-describedby')).toBe(alert.id);
  });
});

describe("CardNumberWidget (the form engine's card input): input max from the schema", () => {
  it('caps at the schema maxLength (pan_capture.maxLength), 19 without one', () => {
    const UI = { 'ui:widget': 'CardNumberWidget', 'ui:options': { labelKey: 'label.pan' } };
    renderField('pan', { type: 'string', maxLength: 23 }, UI);
    expect(screen.getByLabelText<HTMLInputElement>('Card number').maxLength).toBe(23);
    cleanup();
    renderField('pan', { type: 'string' }, UI);
    expect(screen.getByLabelText<HTMLInputElement>('Card number').maxLength).toBe(19);
  });
});
