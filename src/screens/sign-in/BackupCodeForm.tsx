import { useId, useState, type SubmitEvent } from 'react';
import { useText } from '../../content/use-text';
import './sign-in.css';

/** What a typed backup code may be: 10 base32 characters, in any case, with a hyphen or spaces (as the gateway reads it). */
const BACKUP_CODE = /^[A-Za-z2-7]{10}$/;

/**
 * One backup code, typed in place of an authenticator code (docs/decisions/0021-backup-codes-and-account-notices.md):
 * at sign-in when the phone is lost, and to turn two-step verification off without the phone. A
 * malformed code is named next to the field before anything is sent.
 */
export function BackupCodeForm({ submitText, busy, onSubmit }: { submitText: string; busy: boolean; onSubmit: (code: string) => void }) {
  const text = useText('signIn');
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState(false);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = code.trim();
    if (!BACKUP_CODE.test(typed.replace(/[\s-]/g, ''))) {
      setInvalid(true);
      return;
    }
    onSubmit(typed);
  };

  return (
    <form className="site-form backup-code" noValidate onSubmit={submit}>
      <div className="field">
        <label className="field__label" htmlFor={inputId}>
          {text('backupCode.label')}
        </label>
        <p id={hintId} className="backup-code__hint">
          {text('backupCode.hint')}
        </p>
        <input
          id={inputId}
          className="field__input backup-code__input"
          name="backup_code"
          dir="ltr"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={20}
          value={code}
          required
          aria-invalid={invalid}
          aria-describedby={invalid ? `${hintId} ${errorId}` : hintId}
          onChange={(event) => {
            setCode(event.target.value);
            setInvalid(false);
          }}
        />
        {invalid && (
          <p id={errorId} className="field__error" role="alert">
            {text('backupCode.invalid')}
          </p>
        )}
      </div>
      <div className="site-form__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {submitText}
        </button>
      </div>
    </form>
  );
}
