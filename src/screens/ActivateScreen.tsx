import { useMemo, useState } from 'react';
import { dropFlowStep } from '../account/form-drafts';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import type { SiteFormData } from '../../widgets/SiteForm';
import type { AccountRefusal } from '../account/account-refusals';
import { activationRefusal } from '../account/activation-refusals';
import { formWithoutFields } from '../account/form-without-fields';
import { useActivateAccountMutation } from '../api/user-mgmt-api';
import { FEATURE_FLAGS } from '../app/feature-flags';
import { useFormTexts } from '../content/use-form-texts';
import { useText } from '../content/use-text';
import { signInRoute } from '../routes/route-guards';
import { useSiteLocation } from '../site/use-site-location';
import { AccountForm } from './account/AccountForm';
import { RouteHeading } from './RouteHeading';
import { FormAlert } from './shared/FormAlert';
import { useRefusalText } from './shared/use-refusal-text';
import { useSiteFormSchema } from './shared/use-site-form';

type Activation = 'asking' | 'activated' | 'expired' | 'invalid' | 'spent' | 'active';

/**
 * SPEC §2 activate. The activation e-mail's link (`?token=`) proves the mailbox, not who chose the
 * password, so the screen asks for the password chosen at registration and posts both to
 * `activate-token` (ADR 0009 "Activation"). The field is the password field of the site's `login`
 * form. The answer is success (sign in), expired or invalid (a link to resend-activation), or a wrong
 * password with the attempts left; the link is spent after the last one. Whoever does not know the
 * password (they did not register, or forgot it) is pointed to recovery, which proves the mailbox and
 * lets them choose their own. A link without a token is invalid.
 */
export function Component() {
  const { siteId, basePath } = useSiteLocation();
  const { search } = useLocation();
  const [query] = useSearchParams();
  const token = query.get('token') ?? '';
  const text = useText('account');
  const refusalText = useRefusalText();
  const loginForm = useSiteFormSchema('login');
  const form = useMemo(() => (loginForm ? formWithoutFields(loginForm, ['username']) : null), [loginForm]);
  const formTexts = useFormTexts();
  const [activate, { isLoading }] = useActivateAccountMutation();
  const [activation, setActivation] = useState<Activation>(token === '' ? 'invalid' : 'asking');
  const [refusal, setRefusal] = useState<AccountRefusal | null>(null);

  const submit = async (data: SiteFormData) => {
    setRefusal(null);
    const answer = await activate({ siteId, token, password: String(data.password ?? '') });
    if (!answer.error) {
      // The account is active: a kept "check your e-mail" of registration or a new link (ADR 0019 "Flow steps") is over.
      dropFlowStep('registration');
      dropFlowStep('activation-resend');
      setActivation('activated');
      return;
    }
    const refused = activationRefusal(answer.error);
    if (refused.outcome === 'retry') setRefusal(refused.refusal);
    else setActivation(refused.outcome);
  };

  // The token stays out of the links this page offers.
  const linkQuery = new URLSearchParams(search);
  linkQuery.delete('token');
  const keptQuery = linkQuery.size > 0 ? `?${linkQuery.toString()}` : '';
  const signIn = <Link to={`${basePath}${signInRoute(FEATURE_FLAGS)}${keptQuery}`}>{text('activate.signIn')}</Link>;
  const resend = <Link to={`${basePath}resend-activation${keptQuery}`}>{text('activate.resend')}</Link>;
  const recovery = <Link to={`${basePath}recovery${keptQuery}`}>{text('activate.ownPassword')}</Link>;

  return (
    <section className="sign-in" aria-busy={isLoading}>
      <RouteHeading route="activate" />
      {activation === 'asking' && (
        <>
          <p className="sign-in__intro">{text('activate.intro')}</p>
          <AccountForm
            form={form}
            formTexts={formTexts}
            refusal={{ alertMessage: refusal?.alert ? refusalText(refusal.alert) : null, serverErrors: refusal?.fields }}
            onSubmit={(data) => void submit(data)}
            submitText={text(isLoading ? 'activate.activating' : 'activate.submit')}
            disabled={isLoading}
          />
          <p className="sign-in__links">{recovery}</p>
        </>
      )}
      {activation === 'activated' && (
        <>
          <FormAlert kind="success" message={text('activate.success')} />
          <p className="sign-in__links">{signIn}</p>
        </>
      )}
      {activation === 'active' && (
        <>
          <FormAlert kind="info" message={text('activate.alreadyActive')} />
          <p className="sign-in__links">{signIn}</p>
        </>
      )}
      {(activation === 'expired' || activation === 'invalid') && (
        <>
          <FormAlert kind="error" message={text(activation === 'expired' ? 'activate.expired' : 'activate.invalid')} />
          <p className="sign-in__links">{resend}</p>
        </>
      )}
      {activation === 'spent' && (
        <>
          <FormAlert kind="error" message={text('activate.attemptsUsed')} />
          <p className="sign-in__links">
            {recovery}
            {resend}
          </p>
        </>
      )}
    </section>
  );
}
