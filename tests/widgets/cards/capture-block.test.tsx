// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CaptureBlock, type CaptureBlockProps, type CardAddOutcome } from '../../../widgets/cards/CaptureBlock';
import { CardStatusMessage, STATUS_MESSAGE_DELAY_MS, STATUS_MESSAGE_SHOWN_MS } from '../../../widgets/cards/CardStatusMessage';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderBlock(props: Partial<CaptureBlockProps> = {}) {
  const onAdd = props.onAdd ?? vi.fn(async (): Promise<CardAddOutcome> => ({ added: true }));
  render(
    <CaptureBlock
      title="Add a card"
      subtitle="Earn on every purchase"
      description="Add the cards you pay with."
      label="Card number"
      validate
      submitText="Add card"
      checkingText="Checking your card…"
      checkNumber={(value) => (value.replace(/ /g, '').length === 16 ? null : 'A valid FirstBank card is required')}
      status={null}
      {...props}
      onAdd={onAdd}
    />,
  );
  return { onAdd };
}

const input = () => screen.getByLabelText<HTMLInputElement>('Card number');
const addButton = () => screen.getByRole<HTMLButtonElement>('button', { name: /Add card|Checking your card/ });

describe('SPEC §2 capture block', () => {
  it('shows the title, subtitle, description, existing cards and the optional label', () => {
    renderBlock({ existingCards: <ul aria-label="Your cards" />, formLabel: 'Add another card' });
    expect(screen.getByRole('heading', { name: 'Add a card' })).toBeTruthy();
    expect(screen.getByText('Earn on every purchase')).toBeTruthy();
    expect(screen.getByText('Add the cards you pay with.')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Your cards' })).toBeTruthy();
    expect(screen.getByText('Add another card')).toBeTruthy();
  });

  it('the card input and add button only when validation is on', () => {
    renderBlock({ validate: false, existingCards: <ul aria-label="Your cards" /> });
    expect(screen.queryByLabelText('Card number')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add card' })).toBeNull();
    expect(screen.getByRole('list', { name: 'Your cards' })).toBeTruthy();
  });

  it('marks the input required when a card is needed (SPEC §5), not otherwise', () => {
    renderBlock({ required: true });
    expect(input().required).toBe(true);
    cleanup();
    renderBlock();
    expect(input().required).toBe(false);
  });

  it('the add button is disabled while the number is empty', () => {
    renderBlock();
    expect(addButton().disabled).toBe(true);
    fireEvent.change(input(), { target: { value: '4' } });
    expect(addButton().disabled).toBe(false);
  });

  it('while the check runs the button is disabled and shows the loading state; success resets the field', async () => {
    let finish: (outcome: CardAddOutcome) => void = () => undefined;
    const { onAdd } = renderBlock({ onAdd: vi.fn(() => new Promise<CardAddOutcome>((resolve) => (finish = resolve))) });
    fireEvent.change(input(), { target: { value: '4111111111111111' } });
    fireEvent.click(addButton());
    expect(onAdd).toHaveBeenCalledWith('4111 1111 1111 1111');
    expect(addButton().textContent).toBe('Checking your card…');
    expect(addButton().disabled).toBe(true);
    expect(input().disabled).toBe(true);
    await act(async () => finish({ added: true }));
    expect(input().value).toBe('');
    expect(addButton().textContent).toBe('Add card');
  });

  it('a number with a problem shows its error without calling; the error clears on input (SPEC §5)', () => {
    const { onAdd } = renderBlock();
    fireEvent.change(input(), { target: { value: '4111' } });
    fireEvent.click(addButton());
    expect(screen.getByRole('alert').textContent).toContain('A valid FirstBank card is required');
    expect(onAdd).not.toHaveBeenCalled();
    fireEvent.change(input(), { target: { value: '41111' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(input().getAttribute('aria-invalid')).toBeNull();
  });

  it("a refusal keeps the number and shows the answer's error", async () => {
    renderBlock({ onAdd: vi.fn(async (): Promise<CardAddOutcome> => ({ added: false, error: 'A valid FirstBank card is required' })) });
    fireEvent.change(input(), { target: { value: '4111111111111111' } });
    await act(async () => fireEvent.click(addButton()));
    expect(screen.getByRole('alert').textContent).toContain('A valid FirstBank card is required');
    expect(input().value).toBe('4111 1111 1111 1111');
  });
});

describe('SPEC §2, §9 status message (panAdded, panRequired, panDeleted)', () => {
  it('appears 100 ms after the event, in a live region, and is gone 10 s later', () => {
    vi.useFakeTimers();
    const { rerender } = render(<CardStatusMessage status={null} />);
    rerender(<CardStatusMessage status={{ text: 'Your card has been added.', kind: 'success', serial: 1 }} />);
    const region = document.querySelector('.card-status') as HTMLElement;
    expect(region.getAttribute('aria-live')).toBe('polite');
    act(() => vi.advanceTimersByTime(STATUS_MESSAGE_DELAY_MS - 1));
    expect(region.textContent).toBe('');
    act(() => vi.advanceTimersByTime(1));
    expect(region.textContent).toBe('Your card has been added.');
    act(() => vi.advanceTimersByTime(STATUS_MESSAGE_SHOWN_MS - 1));
    expect(region.textContent).toBe('Your card has been added.');
    act(() => vi.advanceTimersByTime(1));
    expect(region.textContent).toBe('');
  });

  it('the same text again starts over; an error status is an alert', () => {
    vi.useFakeTimers();
    const { rerender } = render(<CardStatusMessage status={{ text: 'Your card has been removed.', kind: 'success', serial: 1 }} />);
    act(() => vi.advanceTimersByTime(STATUS_MESSAGE_DELAY_MS + STATUS_MESSAGE_SHOWN_MS));
    expect(screen.queryByText('Your card has been removed.')).toBeNull();
    rerender(<CardStatusMessage status={{ text: 'Your card has been removed.', kind: 'success', serial: 2 }} />);
    act(() => vi.advanceTimersByTime(STATUS_MESSAGE_DELAY_MS));
    expect(screen.getByText('Your card has been removed.')).toBeTruthy();
    rerender(<CardStatusMessage status={{ text: 'You need at least one card on your account.', kind: 'error', serial: 3 }} />);
    act(() => vi.advanceTimersByTime(STATUS_MESSAGE_DELAY_MS));
    expect(screen.getByRole('alert').textContent).toBe('You need at least one card on your account.');
  });

  it('goes when a new entry begins (typing the number or the code), and the next add or removal shows again', () => {
    vi.useFakeTimers();
    const texts = { label: 'Security code', hint: '3 digits', required: 'Enter the security code', invalid: 'Enter 3 digits' };
    const block = (status: CaptureBlockProps['status']) => (
      <CaptureBlock
        label="Card number"
        validate
        submitText="Add card"
        checkingText="Checking…"
        checkNumber={() => null}
        onAdd={vi.fn()}
        cvvTexts={texts}
        status={status}
      />
    );
    const added = { text: 'Your card has been added.', kind: 'success' as const, serial: 1 };
    const { rerender } = render(block(added));
    act(() => vi.advanceTimersByTime(STATUS_MESSAGE_DELAY_MS));
    expect(screen.getByText('Your card has been added.')).toBeTruthy();
    fireEvent.change(input(), { target: { value: '4' } });
    expect(screen.queryByText('Your card has been added.')).toBeNull();
    rerender(block({ ...added, serial: 2 }));
    act(() => vi.advanceTimersByTime(STATUS_MESSAGE_DELAY_MS));
    expect(screen.getByText('Your card has been added.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Security code/), { target: { value: '7' } });
    expect(screen.queryByText('Your card has been added.')).toBeNull();
  });
});
