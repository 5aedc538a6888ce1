import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { asGatewayError } from '../api/gateway-error';
import { useActivateAccountMutation } from '../api/user-mgmt-api';
import { GLOBAL_ERROR_STATUSES } from '../app/error-catalogue';
import { FEATURE_FLAGS } from '../app/feature-flags';
import { useText } from '../content/use-text';
import { signInRoute } from '../routes/route-guards';
import { useSiteLocation } from '../site/use-site-location';
import { RouteHeading } from './RouteHeading';
import { FormAlert } from './shared/FormAlert';

type Activation = 'activating' | 'activated' | 'expired' | 'invalid' | 'unavailable';

/** ADR 0009 activate-token answers, as the states of this screen. */
function activationOf(error: unknown): Activation {
  const gatewayError = asGatewayError(error);
  if (gatewayError.code === 'TOKEN_EXPIRED') return 'expired';
  if (GLOBAL_ERROR_STATUSES.has(gatewayError.status)) return 'unavailable';
  return 'invalid';
}

/**
 * SPEC §2 activate: the token of the activation e-mail's link (`?token=`) is posted once to
 * `activate-token` (ADR 0009); the answer is one of success (sign in), expired or invalid (both
 * with a link to resend-activation). A link without a token is invalid.
 */
export function Component() {
  const { siteId, basePath } = useSiteLocation();
  const { search } = useLocation();
  const [query] = useSearchParams();
  const token = query.get('token') ?? '';
  const text = useText('account');
  const [activate] = useActivateAccountMutation();
  const [activation, setActivation] = useState<Activation>(token === '' ? 'invalid' : 'activating');
  // Once per visit, even when React runs effects twice: the token is single use.
  const started = useRef(false);

  useEffect(() => {
    if (started.current || token === '') return;
    started.current = true;
    void activate({ siteId, token }).then((answer) => setActivation(answer.error ? activationOf(answer.error) : 'activated'));
  }, [activate, siteId, token]);

  // The token stays out of the links this page offers.
  const linkQuery = new URLSearchParams(search);
  linkQuery.delete('token');
  const keptQuery = linkQuery.size > 0 ? `?${linkQuery.toString()}` : '';
  const signIn = <Link to={`${basePath}${signInRoute(FEATURE_FLAGS)}${keptQuery}`}>{text('activate.signIn')}</Link>;
  const resend = <Link to={`${basePath}resend-activation${keptQuery}`}>{text('activate.resend')}</Link>;

  return (
    <section className="sign-in" aria-busy={activation === 'activating'}>
      <RouteHeading route="activate" />
      {activation === 'activating' && <p role="status">{text('activate.activating')}</p>}
      {activation === 'activated' && (
        <>
          <FormAlert kind="success" message={text('activate.success')} />
          <p className="sign-in__links">{signIn}</p>
        </>
      )}
      {(activation === 'expired' || activation === 'invalid') && (
        <>
          <FormAlert kind="error" message={text(activation === 'expired' ? 'activate.expired' : 'activate.invalid')} />
          <p className="sign-in__links">{resend}</p>
        </>
      )}
      {activation === 'unavailable' && <p className="sign-in__links">{resend}</p>}
    </section>
  );
}
