import { defineSiteJourneyMatrix } from './support/site-journey/define-site-journey-matrix';
import { startPortal } from './support/portal-process';

// Every site, every journey, axe on every screen (define-site-journey-matrix.ts) on the embedded database
// (PGlite): one gateway process, a fresh data dir, no test hooks (mail and SMS reach the development outbox
// in any run without SMTP_URL).
defineSiteJourneyMatrix('one gateway on embedded PGlite', () => startPortal());
