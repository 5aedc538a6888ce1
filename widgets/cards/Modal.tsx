import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import './cards.css';

/** While a modal is open the page behind it does not scroll (the body carries this class). */
export const MODAL_OPEN_BODY_CLASS = 'modal-open';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface ModalProps {
  title: string;
  /** The close button's accessible name. */
  closeLabel: string;
  onClose: () => void;
  /** `mini` for a short question, `max` for a wide form. */
  size?: 'mini' | 'max';
  children: ReactNode;
  /** Buttons at the foot of the dialog. */
  actions?: ReactNode;
}

/**
 * SPEC §2 generic modal: a titled dialog with a close button. Focus moves into it and stays
 * there on Tab and Shift+Tab, Escape closes it, the body has `modal-open` while it is shown, and
 * focus goes back to whatever opened it when it closes. Rendered only while open.
 */
export function Modal({ title, closeLabel, onClose, size = 'mini', children, actions }: ModalProps) {
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const trigger = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    document.body.classList.add(MODAL_OPEN_BODY_CLASS);
    const first = dialog.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? dialog.current)?.focus();
    return () => {
      document.body.classList.remove(MODAL_OPEN_BODY_CLASS);
      if (trigger?.isConnected) trigger.focus();
    };
  }, []);

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || dialog.current === null) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (first === undefined || last === undefined) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !dialog.current.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !dialog.current.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div className="modal-backdrop">
      <div ref={dialog} className={`modal modal--${size}`} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} onKeyDown={handleKeyDown}>
        <div className="modal__header">
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          <button type="button" className="modal__close" aria-label={closeLabel} onClick={onClose}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <div className="modal__body">{children}</div>
        {actions !== undefined && <div className="modal__actions">{actions}</div>}
      </div>
    </div>,
    document.body,
  );
}
