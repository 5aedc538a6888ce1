import { useState } from 'react';
import { secureContextClipboard } from '../../app/secure-context-clipboard';
import { useText } from '../../content/use-text';
import '../shared/form-screens.css';
import './sign-in.css';

/**
 * The ten backup codes, shown once, right after enrolment or renewal (docs/decisions/0021-backup-codes-and-account-notices.md):
 * copy them, download them as a text file, and say they are saved before the screen lets them go.
 * The codes live in this component's props only: never in storage, never in the store.
 */
export function BackupCodesPanel({ codes, onSaved }: { codes: readonly string[]; onSaved: () => void }) {
  const text = useText('signIn');
  const [copied, setCopied] = useState(false);
  const asText = `${text('mfa.codes.fileTitle')}\n\n${codes.join('\n')}\n`;

  // The clipboard exists only in secure contexts; without it the codes are still there to select or download.
  const copy = () => {
    void secureContextClipboard()
      ?.writeText(asText)
      .then(
        () => setCopied(true),
        () => setCopied(false),
      );
  };

  return (
    <section className="backup-codes" aria-labelledby="backup-codes-title">
      <h2 id="backup-codes-title" className="backup-codes__title">
        {text('mfa.codes.title')}
      </h2>
      <p>{text('mfa.codes.intro')}</p>
      <ol className="backup-codes__list" dir="ltr" data-testid="backup-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <p className="backup-codes__actions">
        <button type="button" className="link-button" onClick={copy}>
          {text('mfa.codes.copy')}
        </button>
        <a className="backup-codes__download" href={`data:text/plain;charset=utf-8,${encodeURIComponent(asText)}`} download="backup-codes.txt">
          {text('mfa.codes.download')}
        </a>
        <span role="status">{copied ? text('mfa.codes.copied') : ''}</span>
      </p>
      <button type="button" className="button button--primary" onClick={onSaved}>
        {text('mfa.codes.saved')}
      </button>
    </section>
  );
}
