import { useState } from 'react';
import { cardConfigOf } from '../../schemas/cards/card-config';
import { canAddCard, cardNumberProblem, cardRequired } from '../../schemas/cards/card-rules';
import { featureConfigOf, type SiteConfig } from '../../schemas/site-config/types';
import { CaptureBlock } from '../../widgets/cards/CaptureBlock';
import type { CvvTexts } from '../../widgets/cards/CvvInput';
import { StandaloneCardForm } from '../../widgets/cards/StandaloneCardForm';
import type { TextValues } from '../../widgets/form-engine/form-texts';
import { capturesCardsAtSignUp, panLevelAtSignUp } from '../account/sign-up-cards';
import { textOf } from '../content/texts';

/** A locale's content, each group merged along the locale's fallback chain (the studio server's `/content/{locale}`). */
export type ContentGroups = Readonly<Record<string, Readonly<Record<string, string>> | undefined>>;

/**
 * The site's card forms in one locale (SPEC §2 add-pan and edit-pan, §3 pan_capture), drawn by the portal's own
 * card widgets with the texts the card screens give them (src/screens/AddCardScreen.tsx, src/screens/cards/): the
 * registration's capture block where the `pan` level sends registration through add-pan, and the form that adds a
 * card later, the standalone form on a site whose cms tenant is "vpp", else the capture block. "Add" runs the SPEC §5
 * card number rule the browser runs; the gateway's eligibility call is not previewed.
 */
export function CardFormPreviews({ site, groups, languageTag }: { site: SiteConfig; groups: ContentGroups; languageTag: string }) {
  const [accepted, setAccepted] = useState<string | null>(null);
  const panCapture = featureConfigOf(site, 'pan_capture');
  if (Object.keys(panCapture).length === 0) return <p className="studio__note">No pan_capture feature: this site shows no card form.</p>;
  const config = cardConfigOf(panCapture);
  const lookup =
    (group: string) =>
    (key: string, values: TextValues = {}): string =>
      textOf(groups[group], key, '', values, languageTag);
  const cards = lookup('cards');
  const account = lookup('account');
  const invalidText = config.texts.error ?? cards('invalidCard', { product: config.product });
  const cvvTexts: CvvTexts | undefined = config.captureCvv
    ? { label: cards('cvv.label'), hint: cards('cvv.hint'), required: cards('cvv.required'), invalid: cards('cvv.invalid') }
    : undefined;
  const standalone = featureConfigOf(site, 'cms').tenant === 'vpp';
  const accept = (where: string) => setAccepted(`The browser accepts this card number ${where}; the gateway then asks whether the card is eligible.`);
  return (
    <>
      <h3 className="studio__card-form-title">At registration (add-pan)</h3>
      {capturesCardsAtSignUp(site) ? (
        <CaptureBlock
          description={account('addCard.intro')}
          label={config.texts.label ?? account('addCard.cardLabel')}
          validate={canAddCard(0, config.limit)}
          required={cardRequired(panLevelAtSignUp(site) !== 'Mandatory', 0)}
          submitText={config.texts.submitText ?? account('addCard.add')}
          checkingText={cards('checking')}
          placeholder={config.texts.placeholder}
          maxLength={config.maxLength}
          checkNumber={(value) => (cardNumberProblem(value, { required: false, maxInputLength: config.maxLength }) === null ? null : invalidText)}
          onAdd={async () => {
            accept('at registration');
            return { added: false, error: null };
          }}
          cvvTexts={cvvTexts}
          status={null}
        />
      ) : (
        <p className="studio__note">user_asset_profile.pan is None or ProfileOptional: registration is sent without cards.</p>
      )}
      <h3 className="studio__card-form-title">{standalone ? 'Adding a card later: the standalone form (cms tenant vpp)' : 'Adding a card later (edit-pan)'}</h3>
      {standalone ? (
        <StandaloneCardForm
          label={config.texts.label ?? cards('cardNumber')}
          placeholder={config.texts.placeholder}
          maxLength={config.maxLength}
          termsText={config.texts.optInText ?? cards('terms')}
          submitText={config.texts.submitText ?? cards('addCard')}
          checkingText={cards('checking')}
          cancel={
            <button type="button" className="button button--secondary">
              {config.texts.panCancelButtonText ?? cards('cancel')}
            </button>
          }
          checkNumber={(value) =>
            cardNumberProblem(value, { required: true, standalone: true, maxInputLength: config.maxLength }) === null ? null : invalidText
          }
          onSubmit={async () => {
            accept('in the standalone form');
            return null;
          }}
          cvvTexts={cvvTexts}
        />
      ) : (
        <CaptureBlock
          title={cards('capture.title')}
          description={cards('capture.description')}
          label={config.texts.label ?? cards('cardNumber')}
          validate={config.validate}
          required={cardRequired(config.optional, 0)}
          submitText={config.texts.submitText ?? cards('addCard')}
          checkingText={cards('checking')}
          placeholder={config.texts.placeholder}
          maxLength={config.maxLength}
          checkNumber={(value) => (cardNumberProblem(value, { required: false, maxInputLength: config.maxLength }) === null ? null : invalidText)}
          onAdd={async () => {
            accept('on edit-pan');
            return { added: false, error: null };
          }}
          cvvTexts={cvvTexts}
          status={null}
        />
      )}
      {accepted !== null && (
        <p role="status" className="studio__message studio__message--saved">
          {accepted}
        </p>
      )}
    </>
  );
}
