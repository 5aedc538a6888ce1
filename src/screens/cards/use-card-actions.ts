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
  useGetAssetsQuery,
  useRemoveCardMutation,
  useSetDefaultCardMutation,
  useValidateCardMutation,
} from '../../api/assets-api';
import type { GatewayError } from '../../api/gateway-api';
import { notificationShown, type NotificationLifetime } from '../../app/alerts-slice';
import { useSiteLocation } from '../../site/use-site-location';
import { cardRefusalOf } from './card-refusals';
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
  const assets = useGetAssetsQuery(siteId);
  const [validateCard] = useValidateCardMutation();
  const [enrolCard, enrolment] = useEnrolCardMutation();
  const [removeCard] = useRemoveCardMutation();
  const [setDefaultCard] = useSetDefaultCardMutation();
  const [newlyEnrolled, setNewlyEnrolled] = useState<ReadonlySet<string>>(new Set());
  const [status, setStatus] = useState<CardStatus | null>(null);

  const cards: CardEntry[] = cardEntriesOf(assets.data ?? []);
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
      dispatch(notificationShown({ id: 'card-added', kind: 'error', message: text('addFailed', { id: correlationIdOf(error) }), lifetime: bannerLifetime }));
      return { added: false, error: null };
    }
    setNewlyEnrolled(new Set([...newlyEnrolled, ...answer.data.map((asset) => asset.assetId)]));
    showStatus(config.texts.panAddSuccessMessage ?? text('panAdded'), 'success');
    return { added: true };
  };

  const remove = async (card: CardEntry) => {
    const answer = await removeCard({ siteId, options, id: card.id });
    if (answer.error) {
      dispatch(notificationShown({ id: 'card-removed', kind: 'error', message: text('removeFailed', { id: correlationIdOf(answer.error) }) }));
      return;
    }
    showStatus(config.texts.panDeleteSuccessMessage ?? text('panDeleted'), 'success');
  };

  const setDefault = async (card: CardEntry) => {
    const answer = await setDefaultCard({ siteId, options, id: card.id });
    if (answer.error) {
      dispatch(notificationShown({ id: 'default-card', kind: 'error', message: text('setDefaultFailed', { id: correlationIdOf(answer.error) }) }));
    }
  };

  /** SPEC §5: the last card of a site where one is required stays, with the required message (panRequired) as an alert. */
  const refuseLastCard = () => showStatus(config.texts.panDeleteRequiredMessage ?? text('panRequired'), 'error');

  return { cards, loaded: !assets.isLoading, newlyEnrolled, status, add, remove, setDefault, refuseLastCard, enrolling: enrolment.isLoading };
}
