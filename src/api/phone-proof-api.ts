import type { PHONE_PROOF_ANSWER } from '../../schemas/api/response-schemas';
import type { SchemaType } from '../../schemas/api/schema-type';
import { gatewayApi } from './gateway-api';

/** `{ pendingPhone }`: the site's new number waiting for the code texted to it, masked, or null. */
export type PhoneProofState = SchemaType<typeof PHONE_PROOF_ANSWER>;

/**
 * A new phone proved before it counts (docs/decisions/0025-fresh-proof.md): after a save that changed the phone,
 * the profile asks for the code texted to the new number. Every save of the attributes loads the state again
 * (`UserAttributes`), so the question shows as soon as the new number is saved, and goes once it is proved.
 */
export const phoneProofApi = gatewayApi.enhanceEndpoints({ addTagTypes: ['PhoneProof'] }).injectEndpoints({
  endpoints: (build) => ({
    /** GET user-mgmt/user/phone-proof. */
    getPhoneProof: build.query<PhoneProofState, { siteId: string }>({
      query: ({ siteId }) => ({ url: 'user-mgmt/user/phone-proof', siteId }),
      providesTags: ['PhoneProof', 'UserAttributes', 'AuthState'],
    }),
    /** POST user-mgmt/user/phone-proof { passcode }: 400 PASSCODE_INVALID { attemptsLeft }, 409 PHONE_NOT_PENDING. */
    provePhone: build.mutation<PhoneProofState, { siteId: string; passcode: string }>({
      query: ({ siteId, passcode }) => ({ url: 'user-mgmt/user/phone-proof', method: 'POST', siteId, data: { passcode } }),
      // Also after a refusal: a number proved or replaced meanwhile shows as it now is.
      invalidatesTags: ['PhoneProof'],
    }),
    /** POST user-mgmt/user/phone-proof/resend, empty body: a new code to the number waiting. */
    resendPhoneProof: build.mutation<PhoneProofState, { siteId: string }>({
      query: ({ siteId }) => ({ url: 'user-mgmt/user/phone-proof/resend', method: 'POST', siteId }),
    }),
  }),
});

export const { useGetPhoneProofQuery, useProvePhoneMutation, useResendPhoneProofMutation } = phoneProofApi;
