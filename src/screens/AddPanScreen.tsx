import { useMemo, useState } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Link, useLocation } from 'react-router-dom';
import { maskCardNumber } from '../../schemas/validators';
import { featureConfigOf } from '../../schemas/site-config/types';
import { textLookup } from '../../widgets/form-engine/form-texts';
import { SiteForm, type SiteFormData } from '../../widgets/SiteForm';
import { accountRefusal } from '../account/account-refusals';
import { CARD_ENTRY_TEXT_KEYS, cardEntryForm, panDigits, panLevelAtSignUp } from '../account/sign-up-cards';
import { useGetSiteConfigQuery } from '../api/site-config-api';
import { useRegisterMutation } from '../api/user-mgmt-api';
import { registrationEnded } from '../app/registration-slice';
import { useContentTexts } from '../content/use-content-texts';
import { useFormTexts } from '../content/use-form-texts';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import type { RootState } from '../store';
import { CheckEmailNotice } from './account/CheckEmailNotice';
import { RouteHeading } from './RouteHeading';
import { FormAlert } from './sign-in/FormAlert';
import './account/account.css';
import { useRefusalText } from './sign-in/use-refusal-text';

/** Where a `cards.N.pan` error of the gateway points (ADR 0009). */
const CARD_FIELD = /^cards\.(\d+)\.pan$/;

/**
 * SPEC §2 add-pan: the registration step that adds cards (the guard sends a visitor without
 * registration data to /registration). One card input through the CardNumberWidget with an add
 * button, the added cards masked `XXXX XXXX XXXX 1234` each with remove, then the registration is
 * sent with `cards` (ADR 0009). A card is needed when the site's pan level is Mandatory. The texts
 * come from the site's pan_capture configuration where it has them (SPEC §3 card config fields).
 */
export function Component() {
  const { siteId, locale, basePath } = useSiteLocation();
  const { search } = useLocation();
  const dispatch = useDispatch();
  const site = useGetSiteConfigQuery(siteId).data;
  const registrationData = useSelector((state: RootState) => state.registration.data);
  const formTexts = useFormTexts();
  const text = useText('account');
  const accountTexts = useContentTexts('account');
  const refusalText = useRefusalText();
  const [register, { isLoading }] = useRegisterMutation();
  const [cards, setCards] = useState<readonly string[]>([]);
  const [duplicate, setDuplicate] = useState<Readonly<Record<string, string>> | undefined>(undefined);
  const [alert, setAlert] = useState<string | null>(null);
  const [invalidCards, setInvalidCards] = useState<ReadonlySet<number>>(new Set());
  const [sentTo, setSentTo] = useState<string | null>(null);

  const panCapture = site ? featureConfigOf(site, 'pan_capture') : {};
  const cardForm = useMemo(() => (site ? cardEntryForm(site) : null), [site]);
  const cardTexts = useMemo(
    () => ({
      ...formTexts,
      ...(panCapture.label ? { 'label.pan': panCapture.label } : {}),
      [CARD_ENTRY_TEXT_KEYS.required]: panCapture.panAddRequireMessage ?? text('addPan.required'),
      // SPEC §5: "else configured error text"; a site without one gets the generic invalid text.
      [CARD_ENTRY_TEXT_KEYS.invalid]: panCapture.error ?? textLookup(formTexts)('invalid'),
      [CARD_ENTRY_TEXT_KEYS.duplicate]: text('addPan.duplicate'),
    }),
    // `text` is a new function each render; the content it reads is `accountTexts`.
    [formTexts, site, accountTexts],
  );

  if (sentTo !== null) {
    return (
      <section className="sign-in">
        <RouteHeading route="add-pan" />
        <CheckEmailNotice message={text('registration.checkEmail', { email: sentTo })} />
      </section>
    );
  }
  if (registrationData === null || site === undefined || cardForm === null) return null;
  const cardRequired = panLevelAtSignUp(site) === 'Mandatory';

  const addCard = (data: SiteFormData) => {
    const pan = String(data.pan ?? '');
    if (cards.some((card) => panDigits(card) === panDigits(pan))) {
      // SPEC §5 "Duplicate of a listed number invalid".
      setDuplicate({ pan: CARD_ENTRY_TEXT_KEYS.duplicate });
      return;
    }
    setDuplicate(undefined);
    setAlert(null);
    setCards([...cards, pan]);
  };

  const removeCard = (index: number) => {
    setCards(cards.filter((_card, at) => at !== index));
    setInvalidCards(new Set());
  };

  const submitRegistration = async () => {
    setAlert(null);
    if (cardRequired && cards.length === 0) {
      setAlert(panCapture.panAddRequireMessage ?? text('addPan.required'));
      return;
    }
    const answer = await register({ siteId, locale, user: registrationData, cards: cards.map((card) => ({ pan: panDigits(card) })) });
    if (answer.error) {
      const refusal = accountRefusal(answer.error, { fieldPrefix: 'user.' });
      setInvalidCards(new Set(Object.keys(refusal.fields).flatMap((path) => CARD_FIELD.exec(path)?.[1] ?? []).map(Number)));
      setAlert(refusal.alert ? refusalText(refusal.alert) : null);
      return;
    }
    setSentTo(String(registrationData.email ?? ''));
    // The password in the registration data is not kept a moment longer than needed.
    dispatch(registrationEnded());
  };

  return (
    <section className="sign-in" aria-busy={isLoading}>
      <RouteHeading route="add-pan" focusOnMount />
      <p className="sign-in__intro">{text('addPan.intro')}</p>
      {alert !== null && <FormAlert kind="error" message={alert} />}
      <SiteForm
        key={cards.length}
        schema={cardForm.schema}
        uiSchema={cardForm.uiSchema}
        texts={cardTexts}
        serverErrors={duplicate}
        onSubmit={addCard}
        submitText={panCapture.submitText ?? text('addPan.add')}
        disabled={isLoading}
      />
      {cards.length > 0 && (
        <ul className="card-list" aria-label={text('addPan.listLabel')}>
          {cards.map((card, index) => {
            const lastFour = panDigits(card).slice(-4);
            return (
              <li key={panDigits(card)} className="card-list__item">
                <span className="card-list__number">{maskCardNumber(lastFour)}</span>
                <button type="button" className="link-button" aria-label={text('addPan.removeCard', { lastFour })} onClick={() => removeCard(index)}>
                  {panCapture.deleteLinkText ?? text('addPan.remove')}
                </button>
                {invalidCards.has(index) && (
                  <span className="field__error" role="alert">
                    {text('addPan.invalidCard', { lastFour })}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <div className="account-actions">
        <button type="button" className="button button--primary" onClick={() => void submitRegistration()} disabled={isLoading}>
          {text('addPan.submit')}
        </button>
      </div>
      <p className="sign-in__links">
        <Link to={`${basePath}registration${search}`}>{text('addPan.back')}</Link>
      </p>
    </section>
  );
}
