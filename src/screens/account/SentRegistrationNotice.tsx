import { Link, useLocation } from 'react-router-dom';
import { dropFlowStep } from '../../account/form-drafts';
import { useIsolatedText } from '../../content/use-isolated-text';
import { useText } from '../../content/use-text';
import { useSiteLocation } from '../../site/use-site-location';
import { CheckEmailNotice } from './CheckEmailNotice';

/**
 * The sent registration's "check your e-mail" (ADR 0009 CHECK_EMAIL), kept across a reload (ADR 0019 "Flow
 * steps"), with every way out of it: signing in, a new activation link (SPEC §2 resend-activation) and another
 * address (`onStartAgain`: a new, empty registration). Each ends the kept step, so the tab does not stay on it.
 */
export function SentRegistrationNotice({ email, onStartAgain }: { email: string; onStartAgain: () => void }) {
  const text = useText('account');
  const isolated = useIsolatedText('account');
  const { basePath } = useSiteLocation();
  const { search } = useLocation();
  const startAgain = () => {
    dropFlowStep('registration');
    onStartAgain();
  };
  return (
    <section className="sign-in">
      {/* The address inside the sentence is isolated on a right-to-left page (SPEC §2 "Page language follows the locale"). */}
      <CheckEmailNotice message={isolated('registration.checkEmail', { email })} flow="registration">
        <p className="sign-in__links">
          <Link to={`${basePath}resend-activation${search}`} onClick={() => dropFlowStep('registration')}>
            {text('activate.resend')}
          </Link>
        </p>
        <p className="sign-in__links">
          <button type="button" className="link-button" onClick={startAgain}>
            {text('registration.anotherAddress')}
          </button>
        </p>
      </CheckEmailNotice>
    </section>
  );
}
