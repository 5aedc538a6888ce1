import type { AuthServices } from '../auth/auth-services';
import type { Database } from '../db/database';
import type { JobHandler, JobKind } from '../jobs/job-queue';
import { mailFreshActivationLink, type ActivationMailJob } from './activation-resend';
import { sendRecoveryCode, type RecoveryCodeJob } from './recovery';
import { createRegisteredAccount, type RegistrationJob } from './registration';

/**
 * What each account job of ADR 0012 does. Payloads are written by this gateway's own calls only
 * (`acceptRegistration`, `requestActivationMail`, `requestRecoveryCode`), so they are read back as
 * the shapes those wrote.
 */
export function accountJobHandlers(db: Database, services: AuthServices): Record<JobKind, JobHandler> {
  return {
    registration: (payload, attempt) => createRegisteredAccount(db, services, payload as unknown as RegistrationJob, attempt),
    'activation-email': (payload) => mailFreshActivationLink(db, services, payload as unknown as ActivationMailJob),
    'recovery-code': (payload) => sendRecoveryCode(db, services, payload as unknown as RecoveryCodeJob),
  };
}
