import { useState } from 'react';
import { useDispatch } from 'react-redux';
import type { CardModuleOptions } from '../../../schemas/cards/card-config';
import { cardEntriesOf } from '../../../schemas/cards/card-assets';
import { isEligibleAnswer, panDigitsOf, type CardEntry } from '../../../schemas/cards/card-rules';
import type { CardAddOutcome } from '../../../widgets/cards/CaptureBlock';
import type { CardStatus } from '../../../widgets/cards/CardStatusMessage';
import {
  checkCard,
  useEnrolCardMutation,
  useGetCardsQuery,
  useRemoveCardMutation,
  useSetDefaultCardMutation,
  useValidateCardMutation,
} from '../../api/cards-api';
import type { GatewayError } from '../../api/gateway-api';
import { notificationShown, type NotificationLifetime } from '../../app/alerts-slice';
import { useSiteLocation } from '../../site/use-site-location';
import { cardRefusalOf } from './card-refusals';
import { announceCardStatus } from './card-status-event';
import type { CardModule } from './use-card-module';

type ReadyModule = Extract<CardModule, { ready: true }>;

/** SPEC §8 banners carry the answer's X-CID; a call that never reached the gateway has none. */
function correlationIdOf(error: unknown): string {
  return (error as Partial<GatewayError> | undefined)?.correlationId ?? '';
}

/**
 * The card calls of the edit-pan screen (SPEC §4 card add and delete, §8 card errors): the
 * number is checked with the server, then enrolled; removal and
 * set-default refetch the list. Status messages and banners say how it went.
 */
export function useCardActions(module: ReadyModule, options: CardModuleOptions) {
  const { siteId } = useSiteLocation();
  const dispatch = useDispatch();
  const { config, text, invalidText, validationRefusal } = module;
  const assets = useGetCardsQuery(siteId);
  const [validateCard] = useValidateCardMutation();
  const [enrolCard, enrolment] = useEnrolCardMutation();
  const [removeCard] = useRemoveCardMutation();
  const [setDefaultCard] = useSetDefaultCardMutation();
  const [newlyEnrolled, setNewlyEnrolled] = useState<ReadonlySet<string>>(new Set());
  const [status, setStatus] = useState<CardStatus | null>(null);

  const enrolled = assets.data ?? [];
  const cards: CardEntry[] = cardEntriesOf(enrolled);
  const showStatus = (message: string, kind: CardStatus['kind']) => setStatus({ text: message, kind, serial: (status?.serial ?? 0) + 1 });

  /**
   * Checks (with its security code where the site asks one) and enrols one number; a refusal of the number stays on the field, any other failure is
   * the card-added banner, for the next page when the screen moves on after the attempt (SPEC §2
   * standalone form, SPEC §8 "also passed to /profile in standalone mode").
   */
  const add = async (pan: string, cvv?: string, bannerLifetime: NotificationLifetime = 'page'): Promise<CardAddOutcome> => {
    const digits = panDigitsOf(pan);
    // The message of an earlier add or removal would read as this attempt's outcome.
    setStatus(null);
    // The security code goes to the validation call only, never to the enrolment (ADR 0001 capture_cvv).
    const check = await checkCard(() => validateCard({ siteId, options, pan: digits, cvv }));
    const refusal = validationRefusal(check.error);
    if (refusal !== null) return refusal;
    // SPEC §5 "Server eligibility must return eligible true; a failed call counts as ineligible".
    if (!isEligibleAnswer(check.data)) return { added: false, error: invalidText };
    const answer = await enrolCard({ siteId, options, pan: digits });
    if (answer.error) {
      const error = answer.error as GatewayError;
      const refusal = cardRefusalOf(error);
      if (refusal === 'invalid') return { added: false, error: invalidText };
      if (refusal !== null) return { added: false, error: text(refusal, { id: correlationIdOf(error) }) };
      const magicFields = { id: correlationIdOf(error) };
      const message = text('addFailed', magicFields);
      dispatch(notificationShown({ id: 'card-added', kind: 'error', message, lifetime: bannerLifetime }));
      announceCardStatus({ showAlert: true, alertType: 'error', alertMessage: message, bannerId: 'card-added', assets: enrolled, magicFields });
      return { added: false, error: null };
    }
    setNewlyEnrolled(new Set([...newlyEnrolled, ...answer.data.map((asset) => asset.assetId)]));
    const message = config.texts.panAddSuccessMessage ?? text('panAdded');
    showStatus(message, 'success');
    const added = new Set(answer.data.map((asset) => asset.assetId));
    const after = [...enrolled.filter((asset) => !added.has(asset.assetId)), ...answer.data];
    announceCardStatus({ showAlert: true, alertType: 'success', alertMessage: message, bannerId: 'card-added', assets: after, magicFields: {} });
    return { added: true };
  };

  const remove = async (card: CardEntry) => {
    const answer = await removeCard({ siteId, options, id: card.id });
    if (answer.error) {
      const magicFields = { id: correlationIdOf(answer.error) };
      // The holder is told by the banner; the event is SPEC §8's: hasError, no message (ADR 0011 "Card status events").
      dispatch(notificationShown({ id: 'card-removed', kind: 'error', message: text('removeFailed', magicFields) }));
      announceCardStatus({ showAlert: false, alertType: 'error', alertMessage: '', bannerId: 'card-removed', assets: enrolled, magicFields, hasError: true });
      return;
    }
    const message = config.texts.panDeleteSuccessMessage ?? text('panDeleted');
    showStatus(message, 'success');
    const after = enrolled.filter((asset) => asset.assetId !== card.id);
    announceCardStatus({ showAlert: true, alertType: 'success', alertMessage: message, bannerId: 'card-removed', assets: after, magicFields: {} });
  };

  const setDefault = async (card: CardEntry) => {
    const answer = await setDefaultCard({ siteId, options, id: card.id });
    if (answer.error) {
      const magicFields = { id: correlationIdOf(answer.error) };
      const message = text('setDefaultFailed', magicFields);
      dispatch(notificationShown({ id: 'default-card', kind: 'error', message }));
      announceCardStatus({ showAlert: true, alertType: 'error', alertMessage: message, bannerId: 'default-card', assets: enrolled, magicFields });
      return;
    }
    // The Default label moving is the screen's answer; no alert shows.
    const after = enrolled.map((asset) => ({ ...asset, isDefaultAsset: asset.assetId === card.id, defaultAsset: asset.assetId === card.id }));
    announceCardStatus({ showAlert: false, alertType: 'success', alertMessage: '', bannerId: 'default-card', assets: after, magicFields: {} });
  };

  return { cards, loaded: !assets.isLoading, newlyEnrolled, status, add, remove, setDefault, enrolling: enrolment.isLoading };
}
