import { useState, type FocusEvent, type KeyboardEvent } from 'react';
import { isLeavingGroup } from '../form-engine/form-context';
import type { TextLookup } from '../form-engine/form-texts';

interface FieldTooltipProps {
  /** The field's id; the tooltip's own ids derive from it. */
  fieldId: string;
  label: string;
  tooltip: string;
  text: TextLookup;
}

/**
 * SPEC §5 "label can carry a tooltip": a real button (Tab, Enter, Space) that shows the hint and
 * says whether it is shown (aria-expanded); the hint describes the button. Escape or leaving closes it.
 */
export function FieldTooltip({ fieldId, label, tooltip, text }: FieldTooltipProps) {
  const [open, setOpen] = useState(false);
  const tooltipId = `${fieldId}__tooltip`;
  const close = (event: FocusEvent<HTMLElement>) => {
    if (isLeavingGroup(event)) setOpen(false);
  };
  const closeOnEscape = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      setOpen(false);
    }
  };
  return (
    <span className="tooltip" onBlur={close} onKeyDown={closeOnEscape}>
      <button
        type="button"
        className="tooltip__button"
        aria-label={text('tooltip.button', { label })}
        aria-expanded={open}
        aria-describedby={tooltipId}
        onClick={() => setOpen((shown) => !shown)}
      >
        <span aria-hidden="true">?</span>
      </button>
      <span id={tooltipId} role="tooltip" className="tooltip__text" hidden={!open}>
        {tooltip}
      </span>
    </span>
  );
}
