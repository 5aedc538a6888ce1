import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useSelector } from 'react-redux';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { validateReturnUrl } from '../../schemas/validators/url';
import { asGatewayError } from '../api/gateway-error';
import { gatewayBaseUrl } from '../api/gateway-request-headers';
import { useGetSiteConfigQuery } from '../api/site-config-api';
import { useFinishSsoSignInMutation } from '../api/sso-api';
import { FEATURE_FLAGS } from '../app/feature-flags';
import { isSettled } from '../auth/auth-machine';
import { finishSignIn } from '../auth/session-steps';
import { clearSignedOutMark, isMarkedSignedOut } from '../auth/signed-out-mark';
import { useText } from '../content/use-text';
import { resolveSite } from '../site/resolve-site';
import { usePageOrigin } from '../app/page-context';
import { useScreenTitle } from '../app/screen-title';
import { useSiteLocation } from '../site/use-site-location';
import type { RootState } from '../store';
import { RouteHeading } from './RouteHeading';
import { FormAlert } from './shared/FormAlert';
import { useBrowserSession } from './shared/browser-session';
import { collectSsoParameters, connectedAppOf, ssoRefusalKey, ssoStartFields, ssoStartPath } from './sso/sso-parameters';
import '../../widgets/widgets.css';

/**
 * SPEC §2 redirect-sso, docs/decisions/0015-sso-oidc.md. Without `code`: collects and checks the SSO
 * parameters and offers a form that sends them to the gateway's authorize start (on to the site's
 * identity provider); a person starts it, since the §2 SSO rule brings every route of the site here.
 * A visitor already signed in is told so instead. With `code` and `state` (back from the provider):
 * posts them once and, signed in, goes on to `last_visited_path` when it is a page of this site,
 * else to profile. Right after an SSO sign-out (auth/signed-out-mark.ts) a signed-out holder is told they are
 * signed out, and the same start is offered as signing in again.
 */
export function Component() {
  const site = useSiteLocation();
  const [query] = useSearchParams();
  const text = useText('sso');
  const auth = useSelector((state: RootState) => state.auth);
  const code = query.get('code');
  const state = query.get('state');
  const returning = code !== null || state !== null;
  // The mark is the tab's, which the server cannot read (ADR 0024): the server's page and its hydration say "Signing you
  // in", then the tab's answer is read (useSyncExternalStore's server snapshot), with no mismatch between the two. Kept
  // once seen, so the page does not change under the holder while the start form takes the mark away.
  const marked = useSyncExternalStore(
    subscribeToNothing,
    () => !returning && isMarkedSignedOut(site.siteId),
    () => false,
  );
  const [justSignedOut, setJustSignedOut] = useState(false);
  if (marked && !justSignedOut) setJustSignedOut(true);
  const signedOutPage = justSignedOut && auth.name !== 'LOGGEDIN';
  return (
    <section className="sign-in">
      {signedOutPage ? <SignedOutHeading text={text('signedOut')} /> : <RouteHeading route="redirect-sso" />}
      {returning ? <FinishSignIn siteId={site.siteId} code={code ?? ''} state={state ?? ''} /> : <StartSignIn query={query} signedOutPage={signedOutPage} />}
    </section>
  );
}

/** The mark is read once; nothing changes it while the page is shown. */
const subscribeToNothing = () => () => undefined;

/** The signed-out page's heading, and its tab title (SPEC §2 page title follows the screen shown). */
function SignedOutHeading({ text }: { text: string }) {
  useScreenTitle(text);
  return <h1 className="shell__title">{text}</h1>;
}

function StartSignIn({ query, signedOutPage }: { query: URLSearchParams; signedOutPage: boolean }) {
  const { siteId, basePath } = useSiteLocation();
  const text = useText('sso');
  const auth = useSelector((state: RootState) => state.auth);
  const config = useGetSiteConfigQuery(siteId).data;
  const { origin } = usePageOrigin();
  const collection = config ? collectSsoParameters(config, query, { origin, path: `${basePath}redirect-sso` }) : null;
  const signedOut = isSettled(auth) && auth.name === 'LOGGEDOUT';

  if (isSettled(auth) && !signedOut) {
    return (
      <>
        <FormAlert kind="success" message={text('signedIn')} />
        <p className="sign-in__links">
          <Link to={`${basePath}logout`}>{text('signOut')}</Link>
        </p>
      </>
    );
  }
  if (collection?.kind === 'not-sso') return <FormAlert kind="error" message={text('error.notSso')} />;
  if (collection?.kind === 'invalid') {
    return <FormAlert kind="error" message={`${text('error.parameters')} ${collection.names.map((name) => text(`parameter.${name}`)).join(' ')}`} />;
  }
  const ready = signedOut && collection?.kind === 'ready' ? collection.params : null;
  const protocol = collection?.kind === 'ready' ? collection.protocol : 'oidc';
  const app = config ? connectedAppOf(config) : null;
  return (
    <>
      <p className="sign-in__intro">{app === null ? text('intro') : text('intro.app', { app })}</p>
      {/* A plain form: the browser itself goes to the gateway, which answers with the provider's redirect. */}
      <form
        className="site-form"
        method="get"
        action={`${gatewayBaseUrl(FEATURE_FLAGS)}${ssoStartPath(protocol)}`}
        aria-busy={ready === null}
        onSubmit={() => clearSignedOutMark()}
      >
        {ready !== null && ssoStartFields(siteId, ready).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
        <div className="site-form__actions">
          <button type="submit" className="button button--primary" disabled={ready === null}>
            {signedOutPage ? text('signInAgain') : app === null ? text('continue') : text('continue.app', { app })}
          </button>
        </div>
      </form>
    </>
  );
}

function FinishSignIn({ siteId, code, state }: { siteId: string; code: string; state: string }) {
  const site = useSiteLocation();
  const text = useText('sso');
  const navigate = useNavigate();
  const session = useBrowserSession();
  const [finish] = useFinishSsoSignInMutation();
  const [refusal, setRefusal] = useState<string | null>(null);
  // Once per visit, even when React runs effects twice: the state and the code are single use.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void finish({ siteId, code, state }).then((answer) => {
      if (answer.error) {
        setRefusal(ssoRefusalKey(asGatewayError(answer.error).code));
        return;
      }
      finishSignIn(session, site, { expiresIn: answer.data.expires_in, trustedDevice: false });
      clearSignedOutMark();
      void navigate(landingOf(answer.data.lastVisitedPath, site.basePath), { replace: true });
    });
  }, [finish, navigate, session, site, siteId, code, state]);

  if (refusal === null) return <p role="status">{text('signingIn')}</p>;
  return (
    <>
      <FormAlert kind="error" message={text(refusal)} />
      <p className="sign-in__links">
        <Link to={`${site.basePath}redirect-sso`}>{text('startAgain')}</Link>
      </p>
    </>
  );
}

/** ADR 0015: a `last_visited_path` that is an account page of this origin, else profile; never anywhere else. */
function landingOf(lastVisitedPath: string | null, basePath: string): string {
  if (lastVisitedPath === null || validateReturnUrl(lastVisitedPath) !== null) return `${basePath}profile`;
  const target = new URL(lastVisitedPath, window.location.origin);
  const onSite =
    target.origin === window.location.origin && resolveSite({ host: window.location.host, pathname: target.pathname, search: target.search }).route !== null;
  return onSite ? `${target.pathname}${target.search}` : `${basePath}profile`;
}
