import type { UserProfile } from '../../schemas/entities/user-profile';
import { readSiteFormSettings } from '../../schemas/forms/site-form-settings';
import type { Database } from '../db/database';
import type { Fixtures } from '../site-files/load-fixtures';
import { HttpError } from '../http/errors';

/** ADR 0010: the global profile fields a site's attributes hold, by the users column they fill. */
const GLOBAL_PROFILE_COLUMNS: Readonly<Record<string, string>> = {
  first_name: 'first_name',
  last_name: 'last_name',
  dob: 'dob',
  title: 'title',
  gender: 'gender',
  locale: 'locale',
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * ADR 0010 `POST user-mgmt/user/update`: copies the global profile fields of the user's attributes on
 * `siteId` into their profile and answers it (SPEC §7 `user-mgmt/user/find`'s shape). An attribute
 * the site does not hold leaves the profile field as it is; an emptied one clears it.
 */
export async function copySiteProfileToUser(db: Database, fixtures: Fixtures, userId: string, siteId: string): Promise<UserProfile> {
  const site = (fixtures.sites.get(siteId) ?? fixtures.defaultSite).config;
  // SPEC §6: profile update depends on updatable.
  if (!readSiteFormSettings(site).profileUpdatable) throw new HttpError(403, 'PROFILE_UPDATE_NOT_ALLOWED', 'This site does not allow profile updates.');
  return db.transaction(async (tx) => {
    const stored = await tx.query<{ attributes: Record<string, unknown> }>('select attributes from user_sites where user_id = $1 and site_id = $2', [
      userId,
      siteId,
    ]);
    const attributes = stored.rows[0]?.attributes ?? {};
    const assignments: string[] = [];
    const values: unknown[] = [userId];
    for (const [key, column] of Object.entries(GLOBAL_PROFILE_COLUMNS)) {
      const value = attributes[key];
      if (typeof value !== 'string') continue;
      // Saved attributes passed the SPEC §5 rules; a dob written by older systems in another form is left alone.
      if (key === 'dob' && value !== '' && !DATE.test(value)) continue;
      values.push(value === '' ? null : value);
      assignments.push(`${column} = $${values.length}`);
    }
    if (assignments.length > 0) await tx.query(`update users set ${assignments.join(', ')}, updated_at = now() where id = $1`, values);
    const profile = await readUserProfile(tx, userId);
    // The session row cascades with its user, so this only happens in a race with a deletion.
    if (!profile) throw new HttpError(401, 'UNAUTHENTICATED', 'Sign in to continue.');
    return profile;
  });
}

/** The `users` columns a profile is made of; `findSessionUser` reads them with the session (gateway/auth/session-store.ts). */
export interface ProfileRow {
  dob: string | null;
  email: string;
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  status: string;
  mfa_enrollment_status: string;
  gender: string | null;
}

/** The `users` columns of a ProfileRow, for a query that reads them (alone, or beside a session's). */
export const PROFILE_COLUMNS = ['dob', 'email', 'first_name', 'last_name', 'title', 'status', 'mfa_enrollment_status', 'gender'] as const;

export async function readUserProfile(db: Pick<Database, 'query'>, userId: string): Promise<UserProfile | null> {
  const result = await db.query<ProfileRow>(`select ${PROFILE_COLUMNS.join(', ')} from users where id = $1`, [userId]);
  const row = result.rows[0];
  return row ? profileOf(userId, row) : null;
}

/** SPEC §3 "User profile" of the user `userId` from their `users` row. */
export function profileOf(userId: string, row: ProfileRow): UserProfile {
  return {
    // SPEC §3: dob keeps its first 10 characters.
    dob: row.dob === null ? null : row.dob.slice(0, 10),
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    title: row.title,
    userAccountStatus: row.status,
    primaryUserIdentifier: userId,
    mfaEnrollmentStatus: row.mfa_enrollment_status,
    ...(row.gender === null ? {} : { gender: row.gender }),
  };
}
