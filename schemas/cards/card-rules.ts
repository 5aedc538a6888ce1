/**
 * The card rules of SPEC §4 (card add and delete transitions) and §5 (card number and removal
 * rules), pure: the card screens and their tests share them.
 */
import { CASHBACK_STATUSES, type CashbackStatus } from '../entities/cashback-statement';
import { CARD_NUMBER_MAX_INPUT_LENGTH, validateCardNumber } from '../validators/card-number';

/** SPEC §3 "Card entry" as the screens show it: never more of the number than its last four. */
export interface CardEntry {
  id: string;
  lastFour: string;
  /** A SPEC §3 product type code ("C"), or null when the gateway knows none. */
  productType: string | null;
  isDefault: boolean;
  /** SPEC §4: the identifier attribute (VOP_CARD_ID); present only for an eligible card. */
  cardId: string | null;
  /** SPEC §3 cashback status, null when the gateway gives none. */
  cashbackStatus: CashbackStatus | null;
}

export function cashbackStatusOf(value: unknown): CashbackStatus | null {
  return CASHBACK_STATUSES.find((status) => status === value) ?? null;
}

export type CardStatus = 'pending' | 'eligible' | 'not eligible';

const CARD_STATUS_OF_CASHBACK: Readonly<Record<CashbackStatus, CardStatus>> = { PENDING: 'pending', ELIGIBLE: 'eligible', NOT_ELIGIBLE: 'not eligible' };

/** The SPEC §3 cashback status (badge and colour) of a card status: the same fact in the words of the profile's badge. */
export const CASHBACK_STATUS_OF_CARD: Readonly<Record<CardStatus, CashbackStatus>> = {
  pending: 'PENDING',
  eligible: 'ELIGIBLE',
  'not eligible': 'NOT_ELIGIBLE',
};

const NONE_NEWLY_ENROLLED: ReadonlySet<string> = new Set();

/**
 * A card's status, decided here for every screen that shows one (the profile's cashback badge, the line under a
 * card in Manage cards), so one card never shows two. SPEC §4 "pending if in the newly-enrolled list; else eligible
 * if it has an identifier attribute; else not eligible": newly enrolled is a card added in this visit, or one the
 * gateway still counts as new (ADR 0011: PENDING in its first day, whatever its identifier); a gateway status
 * decides the rest; the identifier attribute decides only where the gateway gives no status.
 */
export function cardStatus(card: CardEntry, newlyEnrolledIds: ReadonlySet<string> = NONE_NEWLY_ENROLLED): CardStatus {
  if (newlyEnrolledIds.has(card.id)) return 'pending';
  if (card.cashbackStatus !== null) return CARD_STATUS_OF_CASHBACK[card.cashbackStatus];
  return card.cardId !== null && card.cardId !== '' ? 'eligible' : 'not eligible';
}

/** SPEC §3 product type codes; "Only an en_us mapping exists and it is used for all locales". */
export const PRODUCT_TYPE_TEXTS: Readonly<Record<string, string>> = {
  A: '{product} Traditional',
  B: '{product} Traditional Rewards',
  C: '{product} Signature',
  D: '{product} Signature Preferred',
  F: '{product} Classic',
  G: '{product} Business',
  G1: '{product} Signature Business',
  G3: '{product} Platinum Business',
  G4: '{product} Infinite Business',
  I: '{product} Infinite',
  I1: '{product} Infinite Privilege',
  I2: '{product} UHNW',
  K: '{product} Corporate',
  L: '{product} Electron',
  N: '{product} Platinum',
  P: '{product} Gold',
  S1: '{product} Purchasing',
};

/** SPEC §9 "limit default maximum safe integer": an absent or unreadable limit is unbounded. */
export function cardLimitOf(configured: string | undefined): number {
  const limit = Number(configured);
  return configured !== undefined && configured.trim() !== '' && Number.isInteger(limit) && limit >= 0 ? limit : Number.MAX_SAFE_INTEGER;
}

/** SPEC §4 "Add form hides when count reaches the limit". */
export function canAddCard(count: number, limit: number): boolean {
  return count < limit;
}

/** SPEC §4 "Set-as-default only for non-default cards and only if pan update is allowed". */
export function canSetDefault(card: CardEntry, updateAllowed: boolean): boolean {
  return updateAllowed && !card.isDefault;
}

/** SPEC §4 "Setting a default marks only that card". */
export function withDefaultCard(cards: readonly CardEntry[], id: string): CardEntry[] {
  return cards.map((card) => ({ ...card, isDefault: card.id === id }));
}

/** SPEC §4 "If no card is default, the first becomes default". */
export function withFirstCardDefault(cards: readonly CardEntry[]): CardEntry[] {
  const first = cards[0];
  if (first === undefined || cards.some((card) => card.isDefault)) return [...cards];
  return withDefaultCard(cards, first.id);
}

/**
 * SPEC §5 "Card removal: only if more than one card and not the default" (§9 "removal needs more than one
 * card"): the only card stays on every site, optional or not. The one rule of both sides: the browser picks its modal
 * by it (`lastCard` the only-card modal with the required message, `default` the "cannot delete the default card"
 * modal, null the remove-card modal) and the gateway its refusal (409 LAST_CARD, DEFAULT_CARD; ADR 0011), from the
 * site's cards of the account.
 */
export type RemovalRefusal = 'lastCard' | 'default';

export function removalRefusal(cards: readonly Pick<CardEntry, 'isDefault'>[], card: Pick<CardEntry, 'isDefault'>): RemovalRefusal | null {
  if (cards.length <= 1) return 'lastCard';
  if (card.isDefault) return 'default';
  return null;
}

/** A card number without its spaces (SPEC §3 "pan (spaces removed)"). */
export function panDigitsOf(pan: string): string {
  return pan.replace(/\s+/g, '');
}

/** SPEC §5 "Duplicate of a listed number invalid": the list holds full numbers (the registration list). */
export function isDuplicateCard(pan: string, listed: readonly string[]): boolean {
  const digits = panDigitsOf(pan);
  return listed.some((other) => panDigitsOf(other) === digits);
}

export type CardNumberProblem = 'required' | 'invalid' | 'duplicate';

export interface CardNumberCheck {
  /** SPEC §5 "required unless config optional or at least one card exists". */
  required: boolean;
  /** The full numbers already in the list (registration), for the duplicate rule. */
  listed?: readonly string[];
  /** SPEC §2 standalone (isVpp) form: single spaces between groups. */
  standalone?: boolean;
  maxInputLength?: number;
}

/** SPEC §5 card number as the capture block checks it before the server's eligibility. */
export function cardNumberProblem(value: string, check: CardNumberCheck): CardNumberProblem | null {
  if (value.trim() === '') return check.required ? 'required' : null;
  const invalid = validateCardNumber(value, {
    standalone: check.standalone ?? false,
    maxInputLength: check.maxInputLength ?? CARD_NUMBER_MAX_INPUT_LENGTH,
  });
  if (invalid !== null) return 'invalid';
  // Stryker disable next-line ArrayDeclaration: a filler entry in the empty list is no card number, so it never matches
  return isDuplicateCard(value, check.listed ?? []) ? 'duplicate' : null;
}

/** SPEC §5 "required unless config optional or at least one card exists". */
export function cardRequired(optional: boolean, count: number): boolean {
  return !optional && count === 0;
}

/** SPEC §5 "Server eligibility must return eligible true; a failed call counts as ineligible". */
export function isEligibleAnswer(answer: unknown): boolean {
  return typeof answer === 'object' && answer !== null && (answer as { eligible?: unknown }).eligible === true;
}
