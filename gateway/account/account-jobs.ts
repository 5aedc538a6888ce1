import type { AuthServices } from '../auth/auth-services';
import type { Database } from '../db/database';
import type { Fixtures } from '../site-files/load-fixtures';
import type { JobHandler, JobKind, JobQueue } from '../jobs/job-queue';
import { sendAccountNotice, type AccountNoticeJob } from './account-notices';
import { mailFreshActivationLink, type ActivationMailJob } from './activation-resend';
import { sendAliasProof, type AliasProofJob } from './alias-proof';
import { sendPhoneProof, type PhoneProofJob } from './phone-proof';
import { sendRecoveryCode, type RecoveryCodeJob } from './recovery';
import { createRegisteredAccount, type RegistrationJob } from './registration';

/**
 * What each account job of ADR 0012 does. Payloads are written by this gateway's own calls only
 * (`acceptRegistration`, `requestAccountMail`, the alias call, a save of a new phone), so they are read back as
 * the shapes those wrote.
 */
export function accountJobHandlers(db: Database, fixtures: Fixtures, services: AuthServices): Record<JobKind, JobHandler> {
  return {
    registration: (payload) => createRegisteredAccount(db, fixtures, services, payload as unknown as RegistrationJob),
    'activation-email': (payload, _attempt, jobId) => mailFreshActivationLink(db, fixtures, services, payload as unknown as ActivationMailJob, jobId),
    'recovery-code': (payload) => sendRecoveryCode(db, services, payload as unknown as RecoveryCodeJob),
    'account-notice': (payload) => sendAccountNotice(db, fixtures, services, payload as unknown as AccountNoticeJob),
    'alias-proof': (payload) => sendAliasProof(db, fixtures, services, payload as unknown as AliasProofJob),
    'phone-proof': (payload) => sendPhoneProof(db, fixtures, services, payload as unknown as PhoneProofJob),
  };
}

/**
 * The part of `activation-email` and `send-passcode` done while the caller waits (ADR 0012): count
 * the typed address, store the job. Every address costs the same here; whether it has an account
 * is looked at only by the job.
 */
export async function requestAccountMail(
  services: AuthServices,
  jobs: JobQueue,
  request: { kind: 'activation-email'; job: ActivationMailJob } | { kind: 'recovery-code'; job: RecoveryCodeJob },
): Promise<void> {
  const email = request.job.email.trim().toLowerCase();
  await services.limits.countAccountMail(email);
  await jobs.enqueue(request.kind, { ...request.job, email });
}
