import { describe, it } from 'vitest';
import { portalPairSkipReason, startPortalPair } from './support/portal-pair';
import { defineSiteJourneyMatrix } from './support/site-journey/define-site-journey-matrix';

// The whole site journey matrix (site-journeys.test.ts) again, on the scale path (DESIGN "The real parts"):
// two gateway processes on PostgreSQL with their counters in Redis, behind one round-robin port, no
// stickiness.
const SKIP_REASON = portalPairSkipReason();
const LABEL = 'PostgreSQL + Redis, two instances';

if (SKIP_REASON === undefined) {
  // The walk by visible links, axe-core and the screenshots check the screens themselves, which do not change
  // with how many gateways answer; the embedded matrix (site-journeys.test.ts) checks every screen of every
  // site in every locale. Here every journey's calls alternate between the two instances, one journey for each
  // sign-in and sign-up path the sites configure (firstOfEachSignInPath).
  defineSiteJourneyMatrix(LABEL, () => startPortalPair(), { walkByVisibleLinks: false, checkEveryScreen: false, onePerSignInPath: true });
} else {
  console.warn(`site-journeys-scale.test.ts skipped: ${SKIP_REASON}`);
  describe(`every site, every journey (${LABEL})`, () => {
    it.skip(`skipped: ${SKIP_REASON}`, () => undefined);
  });
}
