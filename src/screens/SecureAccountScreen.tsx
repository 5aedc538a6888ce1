import { useState } from 'react';
import { useDispatch } from 'react-redux';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { asGatewayError, refusalText, type TextRef } from '../api/gateway-error';
import { useGetSiteConfigQuery } from '../api/site-config-api';
import { useSecureAccountMutation } from '../api/user-mgmt-api';
import { notificationShown } from '../app/alerts-slice';
import { GLOBAL_ERROR_STATUSES } from '../app/error-catalogue';
import { FEATURE_FLAGS } from '../app/feature-flags';
import { recoveryStarted } from '../app/recovery-slice';
import { forgetEndedSession } from '../auth/session-steps';
import { useText } from '../content/use-text';
import { isSsoSite, signInRoute } from '../routes/route-guards';
import { useSiteLocation } from '../site/use-site-location';
import type { AppDispatch } from '../store';
import { RouteHeading } from './RouteHeading';
import { useBrowserSession } from './shared/browser-session';
import { FormAlert } from './shared/FormAlert';
import { useRefusalText } from './shared/use-refusal-text';
import './account/account.css';

/**
 * "This wasn't me" (docs/decisions/0021-backup-codes-and-account-notices.md "Telling the holder"): the page of an
 * account notice's link (`?token=`). Loading it changes nothing, since mail scanners fetch links: it says what
 * securing does, and only its button posts the token to `secure-account`. Then every session of the account has
 * ended, this browser forgets its own, and the holder goes on to choose a new password (recovery, with the address
 * when the link was mailed to it); an SSO site's holder goes on to sign in, as their password is the bank's.
 * An unknown, used or expired link, or none, says so and offers the password reset.
 */
export function Component() {
  const site = useSiteLocation();
  const { siteId, basePath } = site;
  const { search } = useLocation();
  const [query] = useSearchParams();
  const token = query.get('token') ?? '';
  const text = useText('account');
  const navigate = useNavigate();
  const dispatch = useDispatch<AppDispatch>();
  const session = useBrowserSession();
  const siteConfig = useGetSiteConfigQuery(siteId).data;
  const [secure, { isLoading }] = useSecureAccountMutation();
  const [invalid, setInvalid] = useState(token === '');
  const [refusal, setRefusal] = useState<TextRef | null>(null);
  const refusalWords = useRefusalText();

  // The token stays out of every link and address this page leads to.
  const linkQuery = new URLSearchParams(search);
  linkQuery.delete('token');
  const keptQuery = linkQuery.size > 0 ? `?${linkQuery.toString()}` : '';

  const secureNow = async () => {
    setRefusal(null);
    const answer = await secure({ siteId, token });
    if (answer.error) {
      const error = asGatewayError(answer.error);
      if (error.code === 'SECURE_ACCOUNT_LINK_INVALID' || error.code === 'VALIDATION_FAILED') setInvalid(true);
      // Any other refusal (too many tries, the service down) is said here, or by the global alert (SPEC §8), and
      // the button stays for another try.
      else if (!GLOBAL_ERROR_STATUSES.has(error.status)) setRefusal(refusalText(answer.error));
      return;
    }
    const sso = siteConfig !== undefined && isSsoSite(siteConfig);
    forgetEndedSession(session, site);
    dispatch(
      notificationShown({
        id: 'account-secured',
        kind: 'success',
        message: text(sso ? 'secureAccount.doneSignIn' : 'secureAccount.done'),
        lifetime: 'next-page',
      }),
    );
    if (sso) {
      await navigate(`${basePath}${signInRoute(FEATURE_FLAGS)}${keptQuery}`, { replace: true });
      return;
    }
    // The address goes to the recovery form as its own first step would keep it: in memory, never in storage.
    if (answer.data.email !== null) dispatch(recoveryStarted({ email: answer.data.email }));
    await navigate(`${basePath}recovery${keptQuery}`, { replace: true });
  };

  return (
    <section className="sign-in" aria-busy={isLoading}>
      <RouteHeading route="secure-account" />
      {invalid ? (
        <>
          <FormAlert kind="error" message={text('secureAccount.invalid')} />
          <p className="sign-in__links">
            <Link to={`${basePath}recovery${keptQuery}`}>{text('secureAccount.recovery')}</Link>
          </p>
        </>
      ) : (
        <>
          {refusal !== null && <FormAlert kind="error" message={refusalWords(refusal)} />}
          <p className="sign-in__intro">{text('secureAccount.intro')}</p>
          <ul className="secure-account__effects">
            <li>{text('secureAccount.signOut')}</li>
            <li>{text('secureAccount.trustedDevices')}</li>
            <li>{text('secureAccount.undoes')}</li>
          </ul>
          <p className="sign-in__intro">{text('secureAccount.next')}</p>
          <div className="account-actions">
            <button type="button" className="button button--primary" onClick={() => void secureNow()} disabled={isLoading}>
              {text(isLoading ? 'secureAccount.securing' : 'secureAccount.submit')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
