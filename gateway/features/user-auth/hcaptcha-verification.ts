import type { FastifyInstance } from 'fastify';
import { CAPTCHA_HEADER } from '../../account/captcha-verifier';
import type { AuthServices } from '../../auth/auth-services';
import { HttpError } from '../../http/errors';
import { fromContract } from '../../http/route-contract';

/**
 * SPEC §7 declared call `internal/hcaptcha/verification` (under user-auth, like the other sign-in
 * calls; ADR 0013): the app asks whether a captcha token is good before a step that needs one. The
 * token travels as everywhere else, in X-HCAPTCHA-TOKEN; the gateway's verifier decides (hCaptcha's
 * siteverify with HCAPTCHA_SECRET, the offline verifier otherwise). Counted with the registration
 * calls per IP, so it is no free oracle for tokens.
 */
export async function hcaptchaVerificationRoutes(app: FastifyInstance, options: { auth: AuthServices }): Promise<void> {
  const { auth } = options;
  app.route({
    ...fromContract('POST /user-auth/internal/hcaptcha/verification'),
    handler: async (request) => {
      await auth.limits.countAccountCall(request.ip);
      const header = request.headers[CAPTCHA_HEADER];
      const token = typeof header === 'string' ? header.trim() : '';
      if (token === '') {
        throw new HttpError(400, 'CAPTCHA_REQUIRED', `Solve the captcha first (${CAPTCHA_HEADER.toUpperCase()} is missing).`, { [CAPTCHA_HEADER]: 'required' });
      }
      if (!(await auth.captchaVerifier.verify(token, request.ip))) {
        throw new HttpError(400, 'CAPTCHA_INVALID', 'The captcha was not solved; try again.', { [CAPTCHA_HEADER]: 'invalid' });
      }
      return { success: true };
    },
  });
}
