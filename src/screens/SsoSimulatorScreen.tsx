import { useId, useState, type SubmitEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import '../../widgets/widgets.css';
import { useChooseSsoIdentityMutation, useGetSsoInteractionQuery } from '../api/sso-api';
import { leaveDocumentFor } from '../app/leave-document';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import { RouteHeading } from './RouteHeading';
import { FormAlert } from './shared/FormAlert';

/**
 * SPEC §2 sso-simulator (its guard sends to /login when the simulator feature is off): the identity
 * picker of the gateway's test identity provider (docs/decisions/0015-sso-oidc.md). The provider sends
 * the browser here with `?interaction=`; the choice comes back as the registered redirect URI with a
 * code, where the browser goes next.
 */
export function Component() {
  const { siteId, basePath } = useSiteLocation();
  const [query] = useSearchParams();
  const interaction = query.get('interaction') ?? '';
  const text = useText('sso');
  const start = <Link to={`${basePath}redirect-sso`}>{text('startAgain')}</Link>;

  return (
    <section className="sign-in">
      <RouteHeading route="sso-simulator" />
      {interaction === '' ? (
        <>
          <FormAlert kind="error" message={text('simulator.noRequest')} />
          <p className="sign-in__links">{start}</p>
        </>
      ) : (
        <IdentityPicker siteId={siteId} interaction={interaction} start={start} />
      )}
    </section>
  );
}

function IdentityPicker({ siteId, interaction, start }: { siteId: string; interaction: string; start: ReactNode }) {
  const text = useText('sso');
  const request = useGetSsoInteractionQuery({ siteId, interaction });
  const [choose, { isLoading }] = useChooseSsoIdentityMutation();
  const [subject, setSubject] = useState('');
  const [missing, setMissing] = useState(false);
  const [failed, setFailed] = useState(false);
  const errorId = useId();

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (subject === '') {
      setMissing(true);
      return;
    }
    const answer = await choose({ siteId, interaction, subject });
    if (answer.error) setFailed(true);
    // The provider answers only a redirect URI registered for the site (ADR 0015).
    else leaveDocumentFor(answer.data.redirectTo);
  };

  if (request.isLoading) return <p role="status">{text('simulator.loading')}</p>;
  if (request.isError || failed) {
    return (
      <>
        <FormAlert kind="error" message={text('simulator.expired')} />
        <p className="sign-in__links">{start}</p>
      </>
    );
  }
  return (
    <>
      <p className="sign-in__intro">{text('simulator.intro')}</p>
      <form className="site-form" noValidate onSubmit={(event) => void submit(event)} aria-busy={isLoading}>
        <fieldset className="passcode-channels__set" aria-describedby={missing ? errorId : undefined}>
          <legend className="passcode-channels__legend">{text('simulator.legend')}</legend>
          {(request.data?.identities ?? []).map((identity) => (
            <div className="check" key={identity.subject}>
              <input
                id={`${errorId}-${identity.subject}`}
                className="check__input"
                type="radio"
                name="identity"
                value={identity.subject}
                checked={subject === identity.subject}
                onChange={() => {
                  setSubject(identity.subject);
                  setMissing(false);
                }}
              />
              <label className="check__label" htmlFor={`${errorId}-${identity.subject}`}>
                {text('simulator.identity', { name: `${identity.givenName} ${identity.familyName}`, email: identity.email })}
              </label>
            </div>
          ))}
          {missing && (
            <p id={errorId} className="field__error" role="alert">
              {text('simulator.required')}
            </p>
          )}
        </fieldset>
        <div className="site-form__actions">
          <button type="submit" className="button button--primary" disabled={isLoading}>
            {text('simulator.submit')}
          </button>
        </div>
      </form>
    </>
  );
}
