import { describe, expect, expectTypeOf, it } from 'vitest';
import { ENROLLED_ASSET_SCHEMA, type EnrolledAsset } from '../../../schemas/api/enrolled-asset';
import { ERROR_BODY_SCHEMA } from '../../../schemas/api/error-body';
import { OTP_VERIFY_BODY, REGISTRATION_BODY, SECOND_FACTOR_BODY } from '../../../schemas/api/request-schemas';
import {
  ACTING_FOR_ANSWER,
  CASHBACK_STATEMENT_ANSWER,
  ALIAS_ANSWER,
  CHECK_EMAIL_ANSWER,
  CONTENT_ANSWER,
  PREFERENCE_DETAILS_ANSWER,
  SIGN_IN_ANSWER,
  USER_PROFILE_ANSWER,
  USER_SITES_ANSWER,
} from '../../../schemas/api/response-schemas';
import type { SchemaType } from '../../../schemas/api/schema-type';
import type { CashbackStatement } from '../../../schemas/entities/cashback-statement';
import type { UserProfile } from '../../../schemas/entities/user-profile';

// The expectations below are checked by the typecheck (`tsc`); the `it` bodies also run, so Vitest counts the file.
describe('SchemaType: the TypeScript type of a contract schema (ADR 0023)', () => {
  it('maps a sign-in answer: required members required, the others optional, const as a literal', () => {
    type SignIn = SchemaType<typeof SIGN_IN_ANSWER>;
    expectTypeOf<SignIn>().toEqualTypeOf<{
      status: 'SIGNED_IN';
      expires_in: number;
      user_type: string;
      mfaEnrollmentStatus: string;
      access_token?: string;
      refresh_token?: string;
      token_type?: 'bearer';
      passwordCompromised?: true;
      backupCodesLeft?: number;
    }>();
    expect(SIGN_IN_ANSWER.required).toContain('status');
  });

  it('maps the profile answer, nullable members included, and it is the domain UserProfile', () => {
    type Profile = SchemaType<typeof USER_PROFILE_ANSWER>;
    expectTypeOf<Profile['dob']>().toEqualTypeOf<string | null>();
    expectTypeOf<Profile['email']>().toEqualTypeOf<string>();
    expectTypeOf<Profile['gender']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Profile>().toEqualTypeOf<UserProfile>();
    expect(USER_PROFILE_ANSWER.properties.dob.type).toEqual(['string', 'null']);
  });

  it('maps enums, status answers and a nullable one of', () => {
    expectTypeOf<SchemaType<typeof ALIAS_ANSWER>['aliasType']>().toEqualTypeOf<'USERNAME' | 'EMAIL'>();
    expectTypeOf<SchemaType<typeof ALIAS_ANSWER>['proved']>().toEqualTypeOf<boolean>();
    expectTypeOf<SchemaType<typeof CHECK_EMAIL_ANSWER>>().toEqualTypeOf<{ status: 'CHECK_EMAIL' }>();
    expectTypeOf<SchemaType<typeof OTP_VERIFY_BODY>['otp_type']>().toEqualTypeOf<'email' | 'sms' | 'totp'>();
    expectTypeOf<SchemaType<typeof CONTENT_ANSWER>['version']>().toEqualTypeOf<2 | 3>();
    expectTypeOf<SchemaType<typeof PREFERENCE_DETAILS_ANSWER>>().toEqualTypeOf<{ email: string; phone: string | null }>();
    expectTypeOf<SchemaType<typeof ACTING_FOR_ANSWER>['actingFor']>().toEqualTypeOf<{
      primaryUserIdentifier: string;
      firstName: string | null;
      lastName: string | null;
    } | null>();
    expect(CHECK_EMAIL_ANSWER.properties.status.enum).toEqual(['CHECK_EMAIL']);
  });

  it('maps items, additional properties and an untyped object', () => {
    expectTypeOf<SchemaType<typeof CONTENT_ANSWER>['content']>().toEqualTypeOf<Record<string, string>>();
    expectTypeOf<SchemaType<typeof USER_SITES_ANSWER>['userSites']>().toEqualTypeOf<
      Record<string, { siteId: string; attributes: Record<string, unknown>; version: number }>
    >();
    expectTypeOf<SchemaType<typeof REGISTRATION_BODY>>().toEqualTypeOf<{
      siteId: string;
      locale: string;
      user: Record<string, unknown>;
      cards?: { pan: string }[];
    }>();
    expectTypeOf<SchemaType<typeof ENROLLED_ASSET_SCHEMA>>().toEqualTypeOf<EnrolledAsset>();
    expectTypeOf<SchemaType<typeof CASHBACK_STATEMENT_ANSWER>>().toEqualTypeOf<CashbackStatement>();
    expect(REGISTRATION_BODY.properties.cards.items.required).toEqual(['pan']);
  });

  it('maps anyOf branches with the keywords beside them, and keeps additional members open', () => {
    expectTypeOf<SchemaType<typeof SECOND_FACTOR_BODY>>().toEqualTypeOf<{ code: string; backupCode?: string } | { code?: string; backupCode: string }>();
    type Error = SchemaType<typeof ERROR_BODY_SCHEMA>;
    expectTypeOf<Error['error']>().toEqualTypeOf<string>();
    expectTypeOf<Error['fields']>().toEqualTypeOf<Record<string, string> | undefined>();
    expectTypeOf<{ error: 'X'; message: 'm'; attemptsLeft: 2 }>().toExtend<Error>();
    expect(SECOND_FACTOR_BODY.anyOf).toHaveLength(2);
  });
});
