import type { FastifyInstance } from 'fastify';
import type { UserProfile } from '../../schemas/entities/user-profile';
import { requireSessionUser } from '../auth/session-cookies';
import type { Database } from '../db/database';
import { HttpError } from '../http/errors';
import type { Clock } from '../time/clock';

/** SPEC §7 `GET user-mgmt/user/find`: the signed-in user's profile; 401 without a session. */
export async function userMgmtFindRoutes(app: FastifyInstance, options: { db: Database; clock: Clock }): Promise<void> {
  const { db, clock } = options;
  app.get('/user-mgmt/user/find', async (request, reply): Promise<UserProfile> => {
    const user = await requireSessionUser(db, request, reply, clock.now());
    const result = await db.query<{
      dob: string | null;
      email: string;
      first_name: string | null;
      last_name: string | null;
      title: string | null;
      status: string;
      mfa_enrollment_status: string;
      gender: string | null;
    }>('select dob, email, first_name, last_name, title, status, mfa_enrollment_status, gender from users where id = $1', [user.userId]);
    const row = result.rows[0];
    // The session row cascades with its user, so this only happens in a race with a deletion.
    if (!row) throw new HttpError(401, 'UNAUTHENTICATED', 'Sign in to continue.');
    return {
      // SPEC §3: dob keeps its first 10 characters.
      dob: row.dob === null ? null : String(row.dob).slice(0, 10),
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      title: row.title,
      userAccountStatus: row.status,
      primaryUserIdentifier: user.userId,
      mfaEnrollmentStatus: row.mfa_enrollment_status,
      ...(row.gender === null ? {} : { gender: row.gender }),
    };
  });
}
