// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Modal, MODAL_OPEN_BODY_CLASS } from '../../../widgets/cards/Modal';

afterEach(cleanup);

function WithTrigger({ size }: { size?: 'mini' | 'max' }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open && (
        <Modal
          title="Remove card"
          closeLabel="Close"
          size={size}
          onClose={() => setOpen(false)}
          actions={
            <>
              <button type="button">Cancel</button>
              <button type="button">Remove card</button>
            </>
          }
        >
          <p>This card will no longer earn rewards.</p>
        </Modal>
      )}
    </>
  );
}

function openModal(size?: 'mini' | 'max') {
  render(<WithTrigger size={size} />);
  const trigger = screen.getByRole('button', { name: 'Open' });
  trigger.focus();
  fireEvent.click(trigger);
  return { trigger, dialog: screen.getByRole('dialog', { name: 'Remove card' }) };
}

describe('SPEC §2 generic modal', () => {
  it('is a labelled modal dialog with focus inside on the close button, and the body class while open', () => {
    const { dialog } = openModal();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    expect(document.body.classList.contains(MODAL_OPEN_BODY_CLASS)).toBe(true);
    expect(dialog.className).toContain('modal--mini');
  });

  it('traps focus: Tab from the last control goes to the first, Shift+Tab from the first to the last', () => {
    const { dialog } = openModal();
    const close = screen.getByRole('button', { name: 'Close' });
    const last = screen.getByRole('button', { name: 'Remove card' });
    last.focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
  });

  it('Escape closes it, drops the body class and gives focus back to the trigger', () => {
    const { trigger, dialog } = openModal();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.classList.contains(MODAL_OPEN_BODY_CLASS)).toBe(false);
    expect(document.activeElement).toBe(trigger);
  });

  it('the close button closes it too; the max size is the wide dialog', () => {
    const { trigger, dialog } = openModal('max');
    expect(dialog.className).toContain('modal--max');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });
});
