// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EditDeleteCardForm } from '../../../widgets/cards/EditDeleteCardForm';
import { ReadOnlyCardList } from '../../../widgets/cards/ReadOnlyCardList';
import { RegistrationCardList } from '../../../widgets/cards/RegistrationCardList';
import { StandaloneCardForm } from '../../../widgets/cards/StandaloneCardForm';
import { card, MANAGED_TEXTS } from './support';

afterEach(cleanup);

const CASHBACK = { ELIGIBLE: 'Eligible for cashback', NOT_ELIGIBLE: 'Not eligible for cashback', PENDING: 'Cashback eligibility pending' };

describe('SPEC §2 read-only list', () => {
  const cards = [
    card('a1', '1111', { isDefault: true, cashbackStatus: 'ELIGIBLE' }),
    card('a2', '1881', { cashbackStatus: 'NOT_ELIGIBLE' }),
    card('a3', '0004', { cashbackStatus: 'PENDING' }),
  ];

  it('masks each card as XXXX XXXX XXXX plus its last four, with a coloured cashback badge when cashback is on', () => {
    render(
      <ReadOnlyCardList
        cards={cards}
        label="Your cards"
        showCashback
        cashbackTexts={CASHBACK}
        productName={() => 'FirstBank Signature'}
        pendingNote="Checked with your bank within a day."
        notEligibleNote="This card can't earn rewards here."
      />,
    );
    const rows = within(screen.getByRole('list', { name: 'Your cards' })).getAllByRole('listitem');
    expect(rows.map((row) => row.querySelector('.card-row__number')?.textContent)).toEqual([
      'XXXX XXXX XXXX 1111',
      'XXXX XXXX XXXX 1881',
      'XXXX XXXX XXXX 0004',
    ]);
    expect(within(rows[0] as HTMLElement).getByText('Eligible for cashback').className).toContain('card-badge--green');
    expect(within(rows[1] as HTMLElement).getByText('Not eligible for cashback').className).toContain('card-badge--red');
    expect(within(rows[2] as HTMLElement).getByText('Cashback eligibility pending').className).toContain('card-badge--blue');
  });

  it('no badges when the site has cashback off', () => {
    render(
      <ReadOnlyCardList
        cards={cards}
        label="Your cards"
        showCashback={false}
        cashbackTexts={CASHBACK}
        productName={() => 'Card'}
        pendingNote="Checked with your bank within a day."
        notEligibleNote="This card can't earn rewards here."
      />,
    );
    expect(screen.queryByText('Eligible for cashback')).toBeNull();
    // Without badges a card that earns nothing still says so (ADR 0011); a pending one needs no note then.
    expect(screen.getByText("This card can't earn rewards here.")).toBeTruthy();
    expect(screen.queryByText('Checked with your bank within a day.')).toBeNull();
  });
});

describe('SPEC §2 registration list', () => {
  it('lists several cards masked, each with its remove link, and marks refused ones', () => {
    const onRemove = vi.fn();
    render(
      <RegistrationCardList
        cards={['4111 1111 1111 1111', '4012888888881881']}
        invalid={new Set([1])}
        onRemove={onRemove}
        texts={{
          listLabel: 'Cards to add',
          removeText: 'Remove',
          removeCard: (lastFour) => `Remove the card ending in ${lastFour}`,
          invalidCard: (lastFour) => `The card ending in ${lastFour} isn't valid.`,
        }}
      />,
    );
    const list = screen.getByRole('list', { name: 'Cards to add' });
    expect(within(list).getByText('XXXX XXXX XXXX 1111')).toBeTruthy();
    expect(within(list).getByText('XXXX XXXX XXXX 1881')).toBeTruthy();
    expect(list.textContent).not.toContain('4111');
    expect(screen.getByRole('alert').textContent).toBe("The card ending in 1881 isn't valid.");
    fireEvent.click(screen.getByRole('button', { name: 'Remove the card ending in 1881' }));
    expect(onRemove).toHaveBeenCalledWith(1);
  });
});

describe('SPEC §2 edit/delete form', () => {
  function renderForm(cards = [card('a1', '1111', { isDefault: true }), card('a2', '1881')]) {
    const handlers = { onRemove: vi.fn() };
    render(
      <EditDeleteCardForm
        cards={cards}
        productName={() => 'Harbour Signature'}
        statusText={() => 'Earning rewards'}
        statusNote={() => null}
        addForm={<form aria-label="Add a card" />}
        texts={{ ...MANAGED_TEXTS, deleteText: 'Delete', deleteCard: (entry) => `Delete the card ending in ${entry.lastFour}` }}
        {...handlers}
      />,
    );
    return handlers;
  }

  it('lists the enrolled cards each with a delete link, then the add form', async () => {
    const { onRemove } = renderForm();
    expect(screen.getByRole('form', { name: 'Add a card' })).toBeTruthy();
    expect(screen.getAllByText('Harbour Signature · Earning rewards')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Delete the card ending in 1881' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove card' });
    expect(within(dialog).getByText('XXXX XXXX XXXX 1881')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(onRemove).toHaveBeenCalledOnce());
  });

  it('delete on the default card explains it cannot go; the only card says the last-card rule in its dialog', () => {
    const { onRemove } = renderForm([card('a1', '1111', { isDefault: true })]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete the card ending in 1111' }));
    expect(screen.getByRole('dialog', { name: "You can't remove your only card" }).textContent).toContain('You need at least one card on your account.');
    expect(onRemove).not.toHaveBeenCalled();
    cleanup();
    renderForm();
    fireEvent.click(screen.getByRole('button', { name: 'Delete the card ending in 1111' }));
    expect(screen.getByRole('dialog', { name: "You can't remove your default card" })).toBeTruthy();
  });
});

describe('SPEC §2 standalone (isVpp) form', () => {
  function renderStandalone(onSubmit = vi.fn(async (): Promise<string | null> => null)) {
    render(
      <StandaloneCardForm
        label="Card number"
        termsText="I agree to the Terms and Conditions."
        submitText="Add card"
        checkingText="Checking your card…"
        cancel={<a href="/vppcards/en_us/account/profile">Cancel</a>}
        checkNumber={(value) => (/^\d{4} \d{4} \d{4} \d{4}$/.test(value) ? null : 'A valid VPP card is required')}
        onSubmit={onSubmit}
      />,
    );
    return onSubmit;
  }

  it('submit needs a number and the terms ticked; cancel links to the profile', async () => {
    const onSubmit = renderStandalone();
    const submit = screen.getByRole<HTMLButtonElement>('button', { name: 'Add card' });
    expect(submit.disabled).toBe(true);
    fireEvent.paste(screen.getByLabelText('Card number'), { clipboardData: { getData: () => '4111-1111-1111-1111' } });
    expect(submit.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('I agree to the Terms and Conditions.'));
    expect(submit.disabled).toBe(false);
    await act(async () => fireEvent.click(submit));
    expect(onSubmit).toHaveBeenCalledWith('4111 1111 1111 1111');
    expect(screen.getByRole('link', { name: 'Cancel' }).getAttribute('href')).toBe('/vppcards/en_us/account/profile');
  });

  it('a refused number shows its error next to the field', async () => {
    renderStandalone(vi.fn(async () => 'A valid VPP card is required'));
    fireEvent.change(screen.getByLabelText('Card number'), { target: { value: '4111111111111111' } });
    fireEvent.click(screen.getByLabelText('I agree to the Terms and Conditions.'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add card' })));
    expect(screen.getByRole('alert').textContent).toContain('A valid VPP card is required');
  });
});
