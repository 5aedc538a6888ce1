import { useState } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { canAddCard, cardNumberProblem, cardRequired, isEligibleAnswer, panDigitsOf } from '../../schemas/cards/card-rules';
import { CaptureBlock, type CardAddOutcome } from '../../widgets/cards/CaptureBlock';
import { RegistrationCardList } from '../../widgets/cards/RegistrationCardList';
import { accountRefusal } from '../account/account-refusals';
import { dropRegistrationDraft } from '../account/form-drafts';
import { useDropRegistrationDraftOnLeaving, useSentRegistration } from '../account/use-registration-draft';
import { panLevelAtSignUp } from '../account/sign-up-cards';
import { checkCard, useValidateCardMutation } from '../api/cards-api';
import { useRegisterMutation } from '../api/user-mgmt-api';
import { registrationEnded } from '../app/registration-slice';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import type { RootState } from '../store';
import { SentRegistrationNotice } from './account/SentRegistrationNotice';
import { useCardModule } from './cards/use-card-module';
import { RouteHeading } from './RouteHeading';
import { FormAlert } from './shared/FormAlert';
import './account/account.css';
import { useRefusalText } from './shared/use-refusal-text';

/** Where a `cards.N.pan` error of the gateway points (ADR 0009). */
const CARD_FIELD = /^cards\.(\d+)\.pan$/;

/**
 * SPEC §2 add-pan: the registration step that adds cards (the guard sends a visitor without
 * registration data to /registration). After a reload that is always the case: the password lives
 * in memory only, so a registration cannot be completed from here, and the person is better served
 * back on the registration form with every non-secret field kept (form-drafts.ts) and a note that
 * the password is not than on a page whose button can only fail. The capture block checks each number (SPEC §5 format,
 * duplicate of a listed number, the server's eligibility: a failed check counts as ineligible),
 * the registration list shows the added cards masked, each with remove, then the registration
 * is sent with `cards` (ADR 0009). A card is needed when the site's pan level is Mandatory.
 */
export function Component() {
  const { siteId, locale, basePath } = useSiteLocation();
  const { search } = useLocation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const module = useCardModule();
  const registrationData = useSelector((state: RootState) => state.registration.data);
  const text = useText('account');
  const refusalText = useRefusalText();
  const [register, { isLoading }] = useRegisterMutation();
  const [validateCard] = useValidateCardMutation();
  const [cards, setCards] = useState<readonly string[]>([]);
  const [alert, setAlert] = useState<string | null>(null);
  const [invalidCards, setInvalidCards] = useState<ReadonlySet<number>>(new Set());
  const [sentNow, setSentNow] = useState<string | null>(null);
  // After a reload here the guard sends the person to /registration, which shows the kept answer.
  const sentTo = useSentRegistration(sentNow);
  useDropRegistrationDraftOnLeaving();

  if (sentTo !== null) {
    // Another address: a new registration from its first step, as empty as a first visit.
    const startAgain = () => {
      dispatch(registrationEnded());
      void navigate(`${basePath}registration${search}`);
    };
    return <SentRegistrationNotice email={sentTo} onStartAgain={startAgain} />;
  }
  if (registrationData === null || !module.ready) return null;
  const { config, options, invalidText, validationRefusal } = module;
  const cardNeeded = cardRequired(panLevelAtSignUp(module.site) !== 'Mandatory', cards.length);
  const requiredText = config.texts.panAddRequireMessage ?? text('addCard.required');

  const addCard = async (pan: string, cvv?: string): Promise<CardAddOutcome> => {
    if (options === null) return { added: false, error: module.optionsError };
    // The security code is checked here and forgotten: the registration carries the number only (ADR 0001 capture_cvv).
    const check = await checkCard(() => validateCard({ siteId, options, pan: panDigitsOf(pan), cvv }));
    const refusal = validationRefusal(check.error);
    if (refusal !== null) return refusal;
    // SPEC §5 "Server eligibility must return eligible true; a failed call counts as ineligible".
    if (!isEligibleAnswer(check.data)) return { added: false, error: invalidText };
    setAlert(null);
    setCards([...cards, pan]);
    return { added: true };
  };

  const removeCard = (index: number) => {
    setCards(cards.filter((_card, at) => at !== index));
    setInvalidCards(new Set());
  };

  const submitRegistration = async () => {
    setAlert(null);
    if (cardNeeded) {
      setAlert(requiredText);
      return;
    }
    const answer = await register({ siteId, locale, user: registrationData, cards: cards.map((card) => ({ pan: panDigitsOf(card) })) });
    if (answer.error) {
      const refusal = accountRefusal(answer.error, { fieldPrefix: 'user.' });
      setInvalidCards(
        new Set(
          Object.keys(refusal.fields)
            .flatMap((path) => CARD_FIELD.exec(path)?.[1] ?? [])
            .map(Number),
        ),
      );
      setAlert(refusal.alert ? refusalText(refusal.alert) : null);
      return;
    }
    setSentNow(String(registrationData.email ?? ''));
    // The password in the registration data is not kept a moment longer than needed, nor the kept fields.
    dispatch(registrationEnded());
    dropRegistrationDraft();
  };

  return (
    <section className="sign-in" aria-busy={isLoading}>
      <RouteHeading route="add-pan" focusOnMount />
      {alert !== null && <FormAlert kind="error" message={alert} />}
      <CaptureBlock
        description={text('addCard.intro')}
        existingCards={
          <RegistrationCardList
            cards={cards}
            invalid={invalidCards}
            onRemove={removeCard}
            texts={{
              listLabel: text('addCard.listLabel'),
              removeText: config.texts.deleteLinkText ?? text('addCard.remove'),
              removeCard: (lastFour) => text('addCard.removeCard', { lastFour }),
              invalidCard: (lastFour) => text('addCard.invalidCard', { lastFour }),
            }}
          />
        }
        label={config.texts.label ?? text('addCard.cardLabel')}
        validate={canAddCard(cards.length, config.limit)}
        required={cardNeeded}
        submitText={config.texts.submitText ?? text('addCard.add')}
        checkingText={module.text('checking')}
        placeholder={config.texts.placeholder}
        maxLength={config.maxLength}
        checkNumber={(value) => (cardNumberProblem(value, { required: false, listed: cards, maxInputLength: config.maxLength }) === null ? null : invalidText)}
        onAdd={addCard}
        cvvTexts={module.cvvTexts}
        status={null}
      />
      <div className="account-actions">
        <button type="button" className="button button--primary" onClick={() => void submitRegistration()} disabled={isLoading}>
          {text('addCard.submit')}
        </button>
      </div>
      <p className="sign-in__links">
        <Link to={`${basePath}registration${search}`}>{text('addCard.back')}</Link>
      </p>
    </section>
  );
}
