import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import './form-screens.css';

/**
 * A form-level message (SPEC §8 texts such as "Oops that wasn't the right combination."): an
 * error is role=alert and takes focus, so keyboard and screen-reader users land on it; a notice
 * (success, or info: something that is neither, such as "nothing was saved") is a polite status
 * and leaves focus where it is. A refusal that names a way out (a locked account: reset the password) links to it.
 */
export function FormAlert({ kind, message, wayOut }: { kind: 'error' | 'success' | 'info'; message: string; wayOut?: { to: string; text: string } }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (kind === 'error') ref.current?.focus();
  }, [kind, message]);
  return (
    <div ref={ref} className={`alert alert--${kind}`} role={kind === 'error' ? 'alert' : 'status'} tabIndex={-1}>
      {kind === 'error' && (
        <span className="alert__icon" aria-hidden="true">
          ⚠
        </span>
      )}
      <p className="alert__message">{message}</p>
      {wayOut && (
        <p className="alert__way-out">
          <Link to={wayOut.to}>{wayOut.text}</Link>
        </p>
      )}
    </div>
  );
}
