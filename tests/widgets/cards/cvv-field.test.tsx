// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CaptureBlock, type CardAddOutcome } from '../../../widgets/cards/CaptureBlock';
import type { CvvTexts } from '../../../widgets/cards/CvvInput';
import { StandaloneCardForm } from '../../../widgets/cards/StandaloneCardForm';

/**
 * ADR 0001 `capture_cvv` in the card forms: the security-code field's attributes, its refusals next to the
 * field before any call (two or five digits, a letter, nothing), the code handed to the add step only when
 * the site asks it, and emptied once the card is added.
 */
afterEach(cleanup);

const TEXTS: CvvTexts = {
  label: 'Security code (CVV)',
  hint: 'The 3 digits on the back of your card.',
  required: 'Enter your card’s security code.',
  invalid: 'Enter the 3 digits of the security code.',
};
const card = () => screen.getByLabelText<HTMLInputElement>('Card number');
const cvv = () => screen.getByLabelText<HTMLInputElement>('Security code (CVV)');

function renderBlock(onAdd = vi.fn(async (): Promise<CardAddOutcome> => ({ added: true })), cvvTexts: CvvTexts | null = TEXTS) {
  render(
    <CaptureBlock
      label="Card number"
      validate
      submitText="Add card"
      checkingText="Checking…"
      checkNumber={() => null}
      status={null}
      onAdd={onAdd}
      cvvTexts={cvvTexts ?? undefined}
    />,
  );
  return onAdd;
}

async function add(number: string, code: string): Promise<void> {
  fireEvent.change(card(), { target: { value: number } });
  fireEvent.change(cvv(), { target: { value: code } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add card' })));
}

describe('capture_cvv: the security code field', () => {
  it('numeric keypad, card autofill, left to right, its shape as a hint; absent where the site asks no code', () => {
    renderBlock();
    expect(cvv().inputMode).toBe('numeric');
    expect(cvv().autocomplete).toBe('cc-csc');
    expect(cvv().dir).toBe('ltr');
    expect(cvv().getAttribute('aria-describedby')).toBe(screen.getByText(TEXTS.hint).id);
    cleanup();
    renderBlock(undefined, null);
    expect(screen.queryByLabelText('Security code (CVV)')).toBeNull();
  });

  it.each([
    ['two digits', '12', TEXTS.invalid],
    ['five digits (kept as typed, not cut to three)', '12345', TEXTS.invalid],
    ['a letter', '7a7', TEXTS.invalid],
    ['nothing', '', TEXTS.required],
  ])('%s: refused next to the field, no call made', async (_name, code, message) => {
    const onAdd = renderBlock();
    await add('4111 1111 1111 1111', code);
    expect(onAdd).not.toHaveBeenCalled();
    expect(cvv().value).toBe(code);
    expect(cvv().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe(message);
  });

  it('three digits: handed to the add step with the number, then emptied with it', async () => {
    const onAdd = renderBlock();
    await add('4111 1111 1111 1111', '737');
    expect(onAdd).toHaveBeenCalledWith('4111 1111 1111 1111', '737');
    expect(cvv().value).toBe('');
    expect(card().value).toBe('');
  });

  it('a code the gateway refuses is said next to the code, the number kept', async () => {
    renderBlock(vi.fn(async (): Promise<CardAddOutcome> => ({ added: false, error: null, cvvError: TEXTS.invalid })));
    await add('4111 1111 1111 1111', '737');
    expect(screen.getByRole('alert').textContent).toBe(TEXTS.invalid);
    expect(card().value).toBe('4111 1111 1111 1111');
  });

  it('the standalone form asks it too, and passes it on', async () => {
    const onSubmit = vi.fn(async () => null);
    render(
      <StandaloneCardForm
        label="Card number"
        termsText="I agree"
        submitText="Add card"
        checkingText="Checking…"
        cancel={null}
        checkNumber={() => null}
        onSubmit={onSubmit}
        cvvTexts={TEXTS}
      />,
    );
    fireEvent.click(screen.getByLabelText('I agree'));
    await add('4111 1111 1111 1111', '12');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe(TEXTS.invalid);
    fireEvent.change(cvv(), { target: { value: '737' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add card' })));
    expect(onSubmit).toHaveBeenCalledWith('4111 1111 1111 1111', '737');
  });
});
