import { cardNumberProblem, canAddCard, cardRequired, cardStatus, type CardEntry, type CardStatus } from '../../../schemas/cards/card-rules';
import type { CardModuleOptions } from '../../../schemas/cards/card-config';
import { CaptureBlock } from '../../../widgets/cards/CaptureBlock';
import { CardsLoadingOverlay } from '../../../widgets/cards/CardsLoadingOverlay';
import { EditDeleteCardForm } from '../../../widgets/cards/EditDeleteCardForm';
import { ManagedCardList } from '../../../widgets/cards/ManagedCardList';
import { useCardActions } from './use-card-actions';
import type { CardModule } from './use-card-module';
import { editDeleteTexts, managedListTexts } from './card-widget-texts';

type ReadyModule = Extract<CardModule, { ready: true }>;

const STATUS_TEXT_KEYS: Readonly<Record<CardStatus, string>> = { pending: 'status.pending', eligible: 'status.eligible', 'not eligible': 'status.notEligible' };
/**
 * ADR 0011: a new card is PENDING for its first day while the bank is asked; the row says so, not only "Being checked".
 * A card that does not earn (among others a number another account holds on the site, kept but not enrolled) says
 * so and where to get help, never why: the same words for every reason, so the list reveals no other holder.
 */
const STATUS_NOTE_KEYS: Readonly<Partial<Record<CardStatus, string>>> = { pending: 'status.pendingNote', 'not eligible': 'status.notEligibleNote' };

/**
 * SPEC §2 edit-pan for signed-in holders: the managed list and the capture block where card
 * updates are allowed (pan_update_allowed), else the edit/delete form; the add form only while
 * the limit is not reached (SPEC §4), a loading overlay while a card is enrolled.
 */
export function CardsEditor({ module, options }: { module: ReadyModule; options: CardModuleOptions }) {
  const { config, text, productName, invalidText } = module;
  const actions = useCardActions(module, options);
  if (!actions.loaded) return null;
  const { cards } = actions;
  const underLimit = canAddCard(cards.length, config.limit);
  const statusText = (card: CardEntry) => text(STATUS_TEXT_KEYS[cardStatus(card, actions.newlyEnrolled)]);
  const statusNote = (card: CardEntry) => {
    const key = STATUS_NOTE_KEYS[cardStatus(card, actions.newlyEnrolled)];
    return key === undefined ? null : text(key);
  };

  const capture = (
    <CaptureBlock
      title={underLimit ? text('capture.title') : undefined}
      description={underLimit ? text('capture.description') : text('limitReached', { count: config.limit })}
      label={config.texts.label ?? text('cardNumber')}
      validate={config.validate && underLimit}
      required={cardRequired(config.optional, cards.length)}
      submitText={config.texts.submitText ?? text('addCard')}
      checkingText={text('checking')}
      placeholder={config.texts.placeholder}
      maxLength={config.maxLength}
      checkNumber={(value) => (cardNumberProblem(value, { required: false, maxInputLength: config.maxLength }) === null ? null : invalidText)}
      onAdd={(value, cvv) => actions.add(value, cvv)}
      cvvTexts={module.cvvTexts}
      status={actions.status}
    />
  );

  return (
    <>
      {config.updateAllowed ? (
        <>
          {cards.length > 0 && (
            <ManagedCardList
              cards={cards}
              updateAllowed={config.updateAllowed}
              productName={productName}
              statusText={statusText}
              statusNote={statusNote}
              onRemove={actions.remove}
              onSetDefault={actions.setDefault}
              texts={managedListTexts(text, config)}
            />
          )}
          {capture}
        </>
      ) : (
        <EditDeleteCardForm
          cards={cards}
          productName={productName}
          statusText={statusText}
          statusNote={statusNote}
          onRemove={actions.remove}
          addForm={capture}
          texts={editDeleteTexts(text, config)}
        />
      )}
      {actions.enrolling && <CardsLoadingOverlay label={text('enrolling')} />}
    </>
  );
}
