import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SiteConfig } from '../../../schemas/site-config/types';
import { publicOriginOf } from '../../account/account-mail';
import { requestAccountMail } from '../../account/account-jobs';
import { ACTIVATION_TOKEN_PATTERN, activateWithToken } from '../../account/activation-tokens';
import { CAPTCHA_HEADER } from '../../account/captcha-verifier';
import { acceptRegistration, assertCaptcha, assertValidRegistration, type Registration } from '../../account/registration';
import type { AuthServices } from '../../auth/auth-services';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import { normalisedPayload } from '../../forms/validate-payload';
import { HttpError } from '../../http/errors';
import type { JobQueue } from '../../jobs/job-queue';
import { fromContract } from '../../http/route-contract';

/** Registration carries at most this many cards; no site captures more at sign-up. */
/** ADR 0009's answer to registration and resend, whatever the address: the inbox is the only place that tells. */
const CHECK_EMAIL = { status: 'CHECK_EMAIL' } as const;

interface RegistrationBody {
  siteId?: string;
  locale: string;
  user: Record<string, unknown>;
  cards?: { pan: string }[];
}

/**
 * SPEC §7 `registration`, `register/{siteId}`, `activate-token` and `activation-email`, as
 * docs/decisions/0009-account-lifecycle-api.md fixes them ("Registration", "Activation").
 */
export async function userMgmtRegistrationRoutes(
  app: FastifyInstance,
  options: { db: Database; fixtures: Fixtures; auth: AuthServices; jobs: JobQueue },
): Promise<void> {
  const { db, fixtures, auth, jobs } = options;

  app.route<{ Body: RegistrationBody }>({
    ...fromContract('POST /user-mgmt/user/registration'),
    handler: (request, reply) => register(request, reply, request.body.siteId ?? ''),
  });

  app.route<{ Params: { siteId: string }; Body: RegistrationBody }>({
    ...fromContract('POST /user-mgmt/user/register/:siteId'),
    handler: (request, reply) => register(request, reply, request.params.siteId),
  });

  async function register(request: FastifyRequest<{ Body: RegistrationBody }>, reply: FastifyReply, siteId: string): Promise<FastifyReply> {
    await auth.limits.countAccountCall(request.ip);
    const site = knownSite(siteId);
    const captchaHeader = request.headers[CAPTCHA_HEADER];
    await assertCaptcha(site, auth, typeof captchaHeader === 'string' ? captchaHeader : undefined, request.ip);
    const { locale } = request.body;
    // Stored as validated: upper-cased where the site asks, as the browser shows it (SPEC §5).
    const user = normalisedPayload(fixtures, { siteId: site.siteId, locale, form: 'registration' }, request.body.user);
    const registration: Registration = { siteId: site.siteId, locale, user, cards: request.body.cards ?? [] };
    assertValidRegistration(fixtures, site, registration, auth.clock.now());
    // ADR 0012: a new password from the breached list is refused, on every site (a floor no site lowers).
    if (await auth.compromisedPasswords.isCompromised(String(registration.user.password))) {
      throw new HttpError(400, 'PASSWORD_COMPROMISED', 'This password has appeared in a data breach; choose another one.', {
        'user.password': 'passwordCompromised',
      });
    }
    await acceptRegistration(auth, jobs, registration, { origin: publicOriginOf(request, auth.publicUrl) });
    jobs.wakeAfterAnswer(reply);
    return reply.code(202).send(CHECK_EMAIL);
  }

  app.route<{ Body: { token: string; password?: string } }>({
    ...fromContract('POST /user-mgmt/user/activate-token'),
    handler: async (request) => {
      await auth.limits.countCodeCheck(request.ip);
      const { token, password } = request.body;
      // ADR 0009 "Activation": the link proves the mailbox, not who chose the password, so the password chosen at
      // registration is asked too. A client that still posts `{ token }` alone gets this named refusal, before
      // anything is looked up, and the link stays as it was.
      if (password === undefined || password === '') {
        throw new HttpError(400, 'PASSWORD_REQUIRED', 'Activation asks for the password chosen at registration (password).', { password: 'required' });
      }
      const result = new RegExp(ACTIVATION_TOKEN_PATTERN).test(token)
        ? await activateWithToken(db, token, password, auth.clock.now())
        : ({ ok: false, error: 'TOKEN_INVALID' } as const);
      if (result.ok) return { status: 'ACTIVATED' };
      if (result.error === 'PASSWORD_INCORRECT') {
        throw new HttpError(
          400,
          'PASSWORD_INCORRECT',
          'This is not the password chosen at registration. Whoever does not know it sets their own with a password reset.',
          { password: 'incorrect' },
          { extras: { attemptsLeft: result.attemptsLeft } },
        );
      }
      if (result.error === 'ALREADY_ACTIVE') {
        throw new HttpError(409, 'ALREADY_ACTIVE', 'This account is already active: sign in with its password.', { token: 'alreadyActive' });
      }
      const message =
        result.error === 'TOKEN_EXPIRED' ? 'This activation link has expired; ask for a new one.' : 'This activation link is not valid or was already used.';
      // SPEC §8: the 400 names the field at fault, as every validation answer does.
      throw new HttpError(400, result.error, message, { token: result.error === 'TOKEN_EXPIRED' ? 'expired' : 'invalid' });
    },
  });

  app.route<{ Body: { email: string; siteId: string; locale: string } }>({
    ...fromContract('POST /user-mgmt/user/activation-email'),
    handler: async (request, reply) => {
      await auth.limits.countAccountCall(request.ip);
      const { email, siteId, locale } = request.body;
      knownSite(siteId);
      await requestAccountMail(auth, jobs, { kind: 'activation-email', job: { email, siteId, locale, origin: publicOriginOf(request, auth.publicUrl) } });
      jobs.wakeAfterAnswer(reply);
      return reply.code(202).send(CHECK_EMAIL);
    },
  });

  function knownSite(siteId: string): SiteConfig {
    const site = fixtures.sites.get(siteId)?.config;
    if (!site) throw new HttpError(400, 'VALIDATION_FAILED', 'Invalid body: siteId names no site.', { siteId: 'invalid' });
    return site;
  }
}
