import { useState } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { SiteFormData } from '../../widgets/SiteForm';
import { dropRegistrationDraft, keepRegistrationDraft, readRegistrationDraft } from '../account/form-drafts';
import { capturesCardsAtSignUp } from '../account/sign-up-cards';
import { useDropRegistrationDraftOnLeaving, useSentRegistration } from '../account/use-registration-draft';
import { useGetOfferCategoriesQuery } from '../api/offers-api';
import { useGetSiteConfigQuery } from '../api/site-config-api';
import { useRegisterMutation } from '../api/user-mgmt-api';
import { FEATURE_FLAGS } from '../app/feature-flags';
import { registrationDataStored } from '../app/registration-slice';
import { useFormTexts } from '../content/use-form-texts';
import { useText } from '../content/use-text';
import { isOffersPreferenceShown, signInRoute } from '../routes/route-guards';
import { useSiteLocation } from '../site/use-site-location';
import type { RootState } from '../store';
import { FormAlert } from './shared/FormAlert';
import { AccountForm } from './account/AccountForm';
import { SentRegistrationNotice } from './account/SentRegistrationNotice';
import { useAccountRefusal } from './account/use-account-refusal';
import { RouteHeading } from './RouteHeading';
import { useSiteFormSchema } from './shared/use-site-form';
import { SiteCarousel } from './sign-in/SiteCarousel';

/**
 * SPEC §2 registration: the site's `registration` form (SiteForm) with the offer categories the
 * loader preloaded. A site that captures cards at sign-up (user_asset_profile pan Mandatory or
 * Optional) keeps the data in memory and goes on to add-pan; any other posts it now (ADR 0009, with
 * the §7 captcha token) and shows the same "check your e-mail" answer for every address. The
 * gateway's VALIDATION_FAILED fields show next to the fields, and nothing typed is lost. Once sent, the answer
 * stays across a reload and Back/Forward (useSentRegistration, ADR 0019 "Flow steps").
 */
export function Component() {
  const { siteId, locale, basePath } = useSiteLocation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const site = useGetSiteConfigQuery(siteId).data;
  const form = useSiteFormSchema('registration');
  const formTexts = useFormTexts({ withOptIns: true });
  const text = useText('account');
  const offerCategories = useGetOfferCategoriesQuery({ siteId, locale }, { skip: site === undefined || !isOffersPreferenceShown(site) }).data;
  // Back from add-pan, the form shows what was typed before. After a reload (the data in memory, with the
  // password, is gone) it shows the kept non-secret fields, and says why the password fields are empty.
  const storedData = useSelector((state: RootState) => state.registration.data);
  const [restored, setRestored] = useState(() => (storedData === null ? readRegistrationDraft(siteId) : null));
  const [initialData, setInitialData] = useState(() => (storedData !== null ? { ...storedData } : (restored ?? undefined)));
  useDropRegistrationDraftOnLeaving();
  const [register, { isLoading }] = useRegisterMutation();
  const refusal = useAccountRefusal({ fieldPrefix: 'user.' });
  const [sentNow, setSentNow] = useState<string | null>(null);
  const sentTo = useSentRegistration(sentNow);
  const goesThroughCardStep = site !== undefined && capturesCardsAtSignUp(site);

  const submit = async (data: SiteFormData) => {
    refusal.clear();
    if (goesThroughCardStep) {
      dispatch(registrationDataStored(data));
      keepRegistrationDraft(siteId, data);
      void navigate(`${basePath}add-pan${search}`);
      return;
    }
    const answer = await register({ siteId, locale, user: data });
    if (answer.error) refusal.refuse(answer.error);
    else {
      dropRegistrationDraft();
      setSentNow(String(data.email ?? ''));
    }
  };

  // Another address: a new registration, as empty as a first visit.
  const startAgain = () => {
    setSentNow(null);
    setRestored(null);
    setInitialData(undefined);
    void navigate(`${basePath}registration${search}`, { replace: true });
  };

  if (sentTo !== null) return <SentRegistrationNotice email={sentTo} onStartAgain={startAgain} />;

  return (
    <section className="sign-in" aria-busy={isLoading}>
      <RouteHeading route="registration" />
      <p className="sign-in__intro">{text('registration.intro')}</p>
      <SiteCarousel />
      {restored !== null && <FormAlert kind="success" message={text('registration.restored')} />}
      <AccountForm
        form={form}
        formTexts={formTexts}
        refusal={refusal}
        formData={initialData}
        offerCategories={offerCategories}
        onSubmit={(data) => void submit(data)}
        submitText={text(goesThroughCardStep ? 'registration.continue' : 'registration.submit')}
        disabled={isLoading}
      />
      <p className="sign-in__links">
        <Link to={`${basePath}${signInRoute(FEATURE_FLAGS)}${search}`}>{text('registration.signIn')}</Link>
      </p>
    </section>
  );
}
