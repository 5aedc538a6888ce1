// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManagedCardList } from '../../../widgets/cards/ManagedCardList';
import { card, MANAGED_TEXTS } from './support';

afterEach(cleanup);

const DEFAULT_CARD = card('a1', '1111', { isDefault: true });
const OTHER_CARD = card('a2', '1881', { productType: 'P' });

function renderList({ cards = [DEFAULT_CARD, OTHER_CARD], updateAllowed = true } = {}) {
  const handlers = { onRemove: vi.fn(), onSetDefault: vi.fn() };
  render(
    <>
      <p>Outside</p>
      <ManagedCardList
        cards={cards}
        updateAllowed={updateAllowed}
        productName={(entry) => (entry.productType === 'P' ? 'FirstBank Gold' : 'FirstBank Signature')}
        statusText={(entry) => (entry.isDefault ? 'Earning rewards' : 'Being checked')}
        statusNote={(entry) => (entry.isDefault ? null : 'Checked with your bank within a day.')}
        texts={MANAGED_TEXTS}
        {...handlers}
      />
    </>,
  );
  return handlers;
}

function menuButton(lastFour: string): HTMLElement {
  return screen.getByRole('button', { name: `More actions for the card ending in ${lastFour}` });
}

function openMenu(lastFour: string): HTMLElement {
  fireEvent.click(menuButton(lastFour));
  return screen.getByRole('menu');
}

describe('SPEC §2 managed list', () => {
  it('shows bullets and the last four, the product, and the Default label on the default card only', () => {
    renderList();
    const rows = within(screen.getByRole('list', { name: 'Your cards' })).getAllByRole('listitem');
    expect(rows[0]?.textContent).toContain('•••• ');
    expect(rows[0]?.textContent).toContain('1111');
    expect(rows[0]?.textContent).toContain('FirstBank Signature · Earning rewards');
    expect(rows[1]?.textContent).toContain('FirstBank Gold · Being checked');
    expect(within(rows[0] as HTMLElement).getByText('Default')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).queryByText('Default')).toBeNull();
    expect(rows[1]?.textContent).not.toContain('4111');
  });

  it('the menu of a non-default card has Remove and Set as default; the default card has Remove only', () => {
    renderList();
    expect(
      within(openMenu('1881'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Remove card…', 'Set as default']);
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    expect(
      within(openMenu('1111'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Remove card…']);
  });

  it('without card updates allowed there is no Set as default (SPEC §4)', () => {
    renderList({ updateAllowed: false });
    expect(
      within(openMenu('1881'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Remove card…']);
  });

  it('a click outside closes the menu; Escape closes it and puts focus back on its button', () => {
    renderList();
    openMenu('1881');
    fireEvent.mouseDown(screen.getByText('Outside'));
    expect(screen.queryByRole('menu')).toBeNull();
    const menu = openMenu('1881');
    expect(menuButton('1881').getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(within(menu).getAllByRole('menuitem')[0]);
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Set as default');
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(menuButton('1881'));
  });

  it('Remove on a non-default card opens the remove modal (description, masked card, remove and cancel); Remove removes it', async () => {
    const { onRemove } = renderList();
    fireEvent.click(within(openMenu('1881')).getByRole('menuitem', { name: 'Remove card…' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove card' });
    expect(dialog.textContent).toContain('This card will no longer earn rewards.');
    expect(within(dialog).getByText('XXXX XXXX XXXX 1881')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onRemove).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(menuButton('1881'));
    fireEvent.click(within(openMenu('1881')).getByRole('menuitem', { name: 'Remove card…' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onRemove).toHaveBeenCalledWith(OTHER_CARD);
  });

  it('Remove on the default card opens "cannot delete the default card" with a close button only', () => {
    const { onRemove } = renderList();
    fireEvent.click(within(openMenu('1111')).getByRole('menuitem', { name: 'Remove card…' }));
    const dialog = screen.getByRole('dialog', { name: "You can't remove your default card" });
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['×', 'Close']);
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Close' })[1] as HTMLElement);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onRemove).not.toHaveBeenCalled();
  });

  it('Remove on the only card opens the only-card modal from that card, close only, never "set another card as default" (SPEC §5)', () => {
    const { onRemove } = renderList({ cards: [DEFAULT_CARD] });
    fireEvent.click(within(openMenu('1111')).getByRole('menuitem', { name: 'Remove card…' }));
    const dialog = screen.getByRole('dialog', { name: "You can't remove your only card" });
    expect(dialog.textContent).toContain('You need at least one card on your account.');
    expect(dialog.textContent).toContain('Add another card and make it your default first, then remove this one.');
    expect(dialog.textContent).not.toContain('Set another card as your default first.');
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['×', 'Close']);
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Close' })[1] as HTMLElement);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onRemove).not.toHaveBeenCalled();
  });

  it('Set as default opens the set-as-default modal showing the card; confirming sets it', async () => {
    const { onSetDefault } = renderList();
    fireEvent.click(within(openMenu('1881')).getByRole('menuitem', { name: 'Set as default' }));
    const dialog = screen.getByRole('dialog', { name: 'Set as default card' });
    expect(within(dialog).getByText('XXXX XXXX XXXX 1881')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make default' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onSetDefault).toHaveBeenCalledWith(OTHER_CARD);
  });
});
