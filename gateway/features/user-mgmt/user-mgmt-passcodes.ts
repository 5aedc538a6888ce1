import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthServices } from '../../auth/auth-services';
import { maskEmail, maskPhone } from '../../auth/masking';
import type { CodePurpose } from '../../auth/one-time-codes';
import { destinationsOf, sendPasscode } from '../../auth/passcode-delivery';
import { readLoginChallenge } from '../../auth/password-sign-in';
import { LOGIN_CHALLENGE_COOKIE, readCookies, requireSessionUser, SESSION_COOKIE } from '../../auth/session-cookies';
import { passcodeChannelsOf, signInPolicyFor } from '../../auth/sign-in-policy';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import { HttpError } from '../../http/errors';
import { fromContract } from '../../http/route-contract';

/**
 * SPEC §7 `POST user-mgmt/user/get-preference-details` and `POST user-mgmt/user/send-code`, as ADR
 * 0008 designs them. Before sign-in completes they answer only for the user of the LOGIN_CHALLENGE
 * cookie, which only a right password sets: nobody learns whether an account exists, or where it
 * gets its codes, from these calls. Signed in, they answer for the session's user (otp-check).
 */
export async function userMgmtPasscodeRoutes(app: FastifyInstance, options: { db: Database; fixtures: Fixtures; auth: AuthServices }): Promise<void> {
  const { db, fixtures, auth } = options;

  app.route<{ Body: { primaryUserIdentifier: string; siteId: string } }>({
    ...fromContract('POST /user-mgmt/user/get-preference-details'),
    handler: async (request, reply) => {
      // A pending sign-in (login-otp-preference), else the session (otp-check-preference).
      const signedIn = readCookies(request).has(SESSION_COOKIE) && !readCookies(request).has(LOGIN_CHALLENGE_COOKIE);
      const { userId, siteId } = await pendingOrSignedInUser(request, reply, signedIn ? 'otp-check' : 'login');
      // The site of the pending sign-in or of the session (ADR 0017): another site's is no challenge here.
      if (request.body.siteId !== siteId) throw challengeRequired();
      const destinations = await destinationsOf(db, userId, siteId);
      // The challenge's user, named by e-mail (the login data) or id (the profile): anything else is not theirs to ask.
      const named = request.body.primaryUserIdentifier.trim().toLowerCase();
      if (!destinations || (named !== userId && named !== destinations.email)) throw challengeRequired();
      return { email: maskEmail(destinations.email), phone: destinations.phone === null ? null : maskPhone(destinations.phone) };
    },
  });

  app.route<{ Body: { channel: 'email' | 'sms'; purpose: CodePurpose } }>({
    ...fromContract('POST /user-mgmt/user/send-code'),
    handler: async (request, reply) => {
      const { channel, purpose } = request.body;
      const { userId, siteId } = await pendingOrSignedInUser(request, reply, purpose);
      const destinations = await destinationsOf(db, userId, siteId);
      if (!destinations) throw challengeRequired();
      if (channel === 'sms' && destinations.phone === null) {
        throw new HttpError(400, 'VALIDATION_FAILED', 'There is no phone number to text the passcode to.', { channel: 'invalid' });
      }
      // ADR 0025 "Channels come from the site": the site's sign-in rule (made stronger by the person's other
      // sites) names the channels, never the caller; and the code is kept as sent for this site and channel.
      const policy = await signInPolicyFor(db, fixtures, userId, siteId);
      if (!passcodeChannelsOf(policy.loginOtp, destinations.phone !== null).includes(channel)) {
        throw new HttpError(400, 'VALIDATION_FAILED', `This site does not send passcodes by ${channel}.`, { channel: 'notOffered' });
      }
      await sendPasscode(db, auth, { userId, siteId, purpose, channel, destinations });
      return reply.code(204).send();
    },
  });

  /** `login`: the LOGIN_CHALLENGE's user; `otp-check`: the signed-in user. */
  async function pendingOrSignedInUser(request: FastifyRequest, reply: FastifyReply, purpose: CodePurpose): Promise<{ userId: string; siteId: string }> {
    if (purpose === 'otp-check') {
      const user = await requireSessionUser(db, request, reply, auth.clock.now());
      return { userId: user.userId, siteId: user.siteId };
    }
    const challenge = readLoginChallenge(request, auth);
    if (!challenge) throw challengeRequired();
    return challenge;
  }
}

function challengeRequired(): HttpError {
  return new HttpError(401, 'LOGIN_CHALLENGE_REQUIRED', 'Sign in with your password first.');
}
