import { useEffect, useRef, type ReactNode } from 'react';
import { dropFlowStep, type KeptFlow } from '../../account/form-drafts';
import { Link, useLocation } from 'react-router-dom';
import { FEATURE_FLAGS } from '../../app/feature-flags';
import { useScreenTitle } from '../../app/screen-title';
import { useText } from '../../content/use-text';
import { signInRoute } from '../../routes/route-guards';
import { useSiteLocation } from '../../site/use-site-location';
import '../shared/form-screens.css';
import './account.css';

/**
 * The answer of registration, resend-activation and recovery (ADR 0009 CHECK_EMAIL): the same
 * words for every address, so the page tells nothing about which accounts exist. It replaces the
 * form, so its heading says what the screen now is (not "Add your card") and takes focus, so
 * screen readers announce the new step; the way on is signing in once the mail is read (SPEC §2). Following
 * that link ends `flow`, the flow whose last step this is (ADR 0019 "Flow steps"); `children` are its other ways on.
 */
export function CheckEmailNotice({ message, flow, children }: { message: ReactNode; flow?: KeptFlow; children?: ReactNode }) {
  const text = useText('account');
  const { basePath } = useSiteLocation();
  const { search } = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  const title = text('checkEmail.title');
  // The tab says it too (SPEC §2 page title), not the form's "Add your card" it replaced.
  useScreenTitle(title);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <>
      <h1 ref={heading} className="shell__title check-email__title" tabIndex={-1}>
        {title}
      </h1>
      <div className="alert alert--success" role="status">
        <p className="alert__message">{message}</p>
      </div>
      {children}
      <p className="sign-in__links">
        <Link to={`${basePath}${signInRoute(FEATURE_FLAGS)}${search}`} onClick={() => flow !== undefined && dropFlowStep(flow)}>
          {text('checkEmail.signIn')}
        </Link>
      </p>
    </>
  );
}
