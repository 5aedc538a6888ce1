import { offlineCaptchaVerifier, type CaptchaVerifier } from '../account/captcha-verifier';
import type { BinRange } from '../../schemas/cards/bin-ranges';
import { offlineCompromisedCheck, type CompromisedPasswordCheck } from '../account/compromised-passwords';
import type { CounterStore } from '../limits/counter-store';
import { MemoryCounterStore } from '../limits/memory-counter-store';
import { SignInLimits } from '../limits/sign-in-limits';
import type { ContentBundle } from '../site-files/load-fixtures';
import type { DevOutbox, Mailer } from '../mail/mailer';
import { mailTextsFrom, type MailTexts } from '../mail/mail-texts';
import { MemoryOutbox } from '../mail/memory-outbox';
import { createCardFingerprinter, type CardFingerprinter } from '../security/card-fingerprint';
import { randomRootKeys, ServerKeyRings } from '../security/key-ring';
import { createKeyedSecretBox, type KeyedSecretBox } from '../security/keyed-secret-box';
import { AdjustableClock } from '../time/clock';

/** ADR 0008 `?preauth=true`: the app's client credentials (a browser app cannot keep a secret). */
export interface PreauthClient {
  id: string;
  secret: string;
}

/** What `main.ts` hands the gateway for sign-in; anything left out gets an in-process stand-in (tests). */
export interface AuthSetup {
  clock?: AdjustableClock;
  counters?: CounterStore;
  /** All outgoing messages; defaults to `devOutbox`. */
  mailer?: Mailer;
  /** The readable development outbox; null when real mail is configured (SMTP_URL), so no outbox page. */
  devOutbox?: DevOutbox | null;
  /**
   * ADR 0026: the server keys' rings (token signing, TOTP sealing, card fingerprints), whose roots are the environment's
   * keys; `buildGateway` reads them from the database and again every KEY_RING_REFRESH_MS. Random roots by default.
   */
  keys?: ServerKeyRings;
  preauthClient?: PreauthClient;
  /** ADR 0011: eligibility and product type of the cards given at registration; none: every card is ineligible. */
  binRanges?: readonly BinRange[];
  /** ADR 0009 captcha; the offline verifier by default. */
  captchaVerifier?: CaptchaVerifier;
  /** ADR 0009 compromised credentials; the bundled list by default. */
  compromisedPasswords?: CompromisedPasswordCheck;
  /** The site's public origin for links in e-mails (PUBLIC_URL); unset: the origin the request came to. */
  publicUrl?: string;
  /** The content bundles mails are written from (group `mail`, in the reader's locale); none: a gateway that sends no mail. */
  mailContent?: ReadonlyMap<string, ContentBundle>;
  /** README "Metrics": told when a sign-in lock starts (gateway/metrics/gateway-metrics.ts); nothing by default. */
  onLockStarted?: (lock: 'account' | 'device') => void;
}

/** The sign-in pieces every auth route shares, built once per gateway. */
export interface AuthServices {
  clock: AdjustableClock;
  limits: SignInLimits;
  mailer: Mailer;
  devOutbox: DevOutbox | null;
  /** Signs access tokens, challenge and trusted-device cookies, and keys the passcode hashes (`token`); seals TOTP secrets; fingerprints cards. */
  keys: ServerKeyRings;
  totpBox: KeyedSecretBox;
  preauthClient: PreauthClient;
  /** Keyed fingerprints of the cards given (never the number itself). */
  cardFingerprinter: CardFingerprinter;
  binRanges: readonly BinRange[];
  captchaVerifier: CaptchaVerifier;
  compromisedPasswords: CompromisedPasswordCheck;
  publicUrl: string | null;
  /** Mail texts in the reader's locale, over en_us. */
  mailTexts: MailTexts;
}

/** Development defaults of the pre-auth client (ADR 0008); set PREAUTH_CLIENT_ID/SECRET in production. */
export const DEV_PREAUTH_CLIENT: PreauthClient = { id: 'cardholder-portal', secret: 'dev-preauth-secret' };

export function createAuthServices(setup: AuthSetup = {}): AuthServices {
  const clock = setup.clock ?? new AdjustableClock();
  const devOutbox = setup.devOutbox === undefined ? new MemoryOutbox(clock) : setup.devOutbox;
  const mailer = setup.mailer ?? devOutbox;
  if (mailer === null) throw new Error('A gateway without a development outbox needs a mailer');
  // Random keys when none are given: tokens and sealed secrets then live as long as the process.
  const keys = setup.keys ?? new ServerKeyRings(randomRootKeys());
  return {
    clock,
    limits: new SignInLimits(setup.counters ?? new MemoryCounterStore(), clock, setup.onLockStarted),
    mailer,
    devOutbox,
    keys,
    totpBox: createKeyedSecretBox(keys.totp, clock),
    preauthClient: setup.preauthClient ?? DEV_PREAUTH_CLIENT,
    cardFingerprinter: createCardFingerprinter(keys.card, clock),
    binRanges: setup.binRanges ?? [],
    captchaVerifier: setup.captchaVerifier ?? offlineCaptchaVerifier,
    compromisedPasswords: setup.compromisedPasswords ?? offlineCompromisedCheck(),
    publicUrl: setup.publicUrl ?? null,
    mailTexts: mailTextsFrom(setup.mailContent ?? new Map()),
  };
}
