import { useEffect, useRef } from 'react';
import { useText } from '../../content/use-text';
import '../sign-in/sign-in.css';
import './account.css';

/**
 * The answer of registration, resend-activation and recovery (ADR 0009 CHECK_EMAIL): the same
 * words for every address, so the page tells nothing about which accounts exist. It replaces the
 * form and takes focus, so screen readers announce the new step.
 */
export function CheckEmailNotice({ message }: { message: string }) {
  const text = useText('account');
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div ref={ref} className="alert alert--success" role="status" tabIndex={-1}>
      <h2 className="check-email__title">{text('checkEmail.title')}</h2>
      <p className="alert__message">{message}</p>
    </div>
  );
}
