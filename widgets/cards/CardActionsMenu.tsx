import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

export interface CardAction {
  label: string;
  run: () => void;
}

/**
 * SPEC §2 managed list: the vertical-dots menu of one card. It opens below its button with focus
 * on the first item; arrow keys move between items; Escape, a click outside or choosing an item
 * closes it, focus going back to the button so a modal opened by the item returns there too.
 */
export function CardActionsMenu({ label, actions }: { label: string; actions: readonly CardAction[] }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    if (!open) return;
    items.current[0]?.focus();
    const closeOutside = (event: MouseEvent | TouchEvent) => {
      if (root.current !== null && event.target instanceof Node && !root.current.contains(event.target)) setOpen(false);
    };
    document.addEventListener('mousedown', closeOutside);
    document.addEventListener('touchstart', closeOutside);
    return () => {
      document.removeEventListener('mousedown', closeOutside);
      document.removeEventListener('touchstart', closeOutside);
    };
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const handleMenuKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const focusable = items.current.filter((item): item is HTMLButtonElement => item !== null);
    const at = focusable.findIndex((item) => item === document.activeElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      focusable[(at + step + focusable.length) % focusable.length]?.focus();
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      (event.key === 'Home' ? focusable[0] : focusable[focusable.length - 1])?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <div ref={root} className="card-menu">
      <button
        ref={button}
        type="button"
        className="card-menu__button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
      >
        <span className="card-menu__dots" aria-hidden="true" />
      </button>
      {open && (
        <ul id={menuId} className="card-menu__list" role="menu" aria-label={label} onKeyDown={handleMenuKeyDown}>
          {actions.map((action, index) => (
            <li key={action.label} role="none">
              <button
                ref={(element) => {
                  items.current[index] = element;
                }}
                type="button"
                role="menuitem"
                className="card-menu__item"
                tabIndex={-1}
                onClick={() => {
                  close();
                  action.run();
                }}
              >
                {action.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
