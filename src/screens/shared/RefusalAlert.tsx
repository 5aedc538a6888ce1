import { useLocation } from 'react-router-dom';
import type { TextRef } from '../../api/gateway-error';
import { useText } from '../../content/use-text';
import { useSiteLocation } from '../../site/use-site-location';
import { FormAlert } from './FormAlert';
import { useRefusalText } from './use-refusal-text';

/**
 * A refusal as a form-level alert, in the site's words, with the way out it names as a link (a locked account:
 * the password reset, which unlocks it, ADR 0008), so no screen says "reset your password" without the link.
 */
export function RefusalAlert({ refusal, kind = 'error' }: { refusal: TextRef; kind?: 'error' | 'success' | 'info' }) {
  const { basePath } = useSiteLocation();
  const { search } = useLocation();
  const refusalText = useRefusalText();
  const signIn = useText('signIn');
  const wayOut = refusal.wayOut === 'recovery' ? { to: `${basePath}recovery${search}`, text: signIn('login.resetToUnlock') } : undefined;
  return <FormAlert kind={kind} message={refusalText(refusal)} wayOut={wayOut} />;
}
