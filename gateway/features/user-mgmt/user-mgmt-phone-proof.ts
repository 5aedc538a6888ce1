import type { FastifyInstance } from 'fastify';
import { PHONE_PROOF_BODY } from '../../../schemas/api/request-schemas';
import type { PHONE_PROOF_ANSWER } from '../../../schemas/api/response-schemas';
import type { SchemaType } from '../../../schemas/api/schema-type';
import { confirmPhoneProof, phoneProofStateOf, resendPhoneProof } from '../../account/phone-proof';
import type { AuthServices } from '../../auth/auth-services';
import { requireSessionUser } from '../../auth/session-cookies';
import type { Database } from '../../db/database';
import type { JobQueue } from '../../jobs/job-queue';
import { fromContract } from '../../http/route-contract';

type PhoneProofAnswer = SchemaType<typeof PHONE_PROOF_ANSWER>;

/**
 * docs/decisions/0025-fresh-proof.md "A new phone is proved before it counts": the new number of the session's
 * site (never a site the request names, ADR 0017) waits for the code texted to it after the save.
 * - `GET user-mgmt/user/phone-proof`: the number waiting, masked;
 * - `POST user-mgmt/user/phone-proof` `{ passcode }`: makes it the number passcodes go to;
 * - `POST user-mgmt/user/phone-proof/resend`: a new code to it.
 * Card holders only (`cardholder`): the code proves the holder has the phone, so an agent never enters it (ADR 0014).
 */
export async function userMgmtPhoneProofRoutes(app: FastifyInstance, options: { db: Database; auth: AuthServices; jobs: JobQueue }): Promise<void> {
  const { db, auth, jobs } = options;

  app.route({
    ...fromContract('GET /user-mgmt/user/phone-proof'),
    handler: async (request, reply): Promise<PhoneProofAnswer> => {
      const user = await requireSessionUser(db, request, reply, auth.clock.now());
      return phoneProofStateOf(db, user.userId, user.siteId);
    },
  });

  app.route<{ Body: SchemaType<typeof PHONE_PROOF_BODY> }>({
    ...fromContract('POST /user-mgmt/user/phone-proof'),
    handler: async (request, reply): Promise<PhoneProofAnswer> => {
      const user = await requireSessionUser(db, request, reply, auth.clock.now());
      // Counted with the other code checks per IP (ADR 0008), before the code is looked at.
      await auth.limits.countCodeCheck(request.ip);
      return confirmPhoneProof(db, auth, { userId: user.userId, siteId: user.siteId, passcode: request.body.passcode });
    },
  });

  // No body: whatever is sent, of any type, is read within the limit and dropped.
  await app.register(async (resending) => {
    resending.removeAllContentTypeParsers();
    resending.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
    resending.route({
      ...fromContract('POST /user-mgmt/user/phone-proof/resend'),
      handler: async (request, reply): Promise<PhoneProofAnswer> => {
        const user = await requireSessionUser(db, request, reply, auth.clock.now());
        // A text costs the bank money and lands on someone's phone: counted like every passcode send (ADR 0008).
        await auth.limits.countCodeSend(user.userId);
        return resendPhoneProof(db, jobs, reply, user.userId, user.siteId);
      },
    });
  });
}
