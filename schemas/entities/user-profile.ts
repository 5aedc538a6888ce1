/**
 * SPEC §3 "User profile": the answer of `GET user-mgmt/user/find`, one shape for the gateway that
 * sends it and the app that reads it. `dob` keeps its first 10 characters (YYYY-MM-DD).
 */
export interface UserProfile {
  dob: string | null;
  email: string;
  firstName: string | null;
  lastName: string | null;
  title: string | null;
  userAccountStatus: string;
  primaryUserIdentifier: string;
  mfaEnrollmentStatus: string;
  gender?: string;
}
