/** Every form that collects data (SPEC §2 screens). */
export const FORM_NAMES = [
  'registration',
  'edit-profile',
  'profile-view',
  'change-password',
  'reset-password',
  'recovery',
  'login',
  'otp',
  'passcode',
] as const;
export type FormName = (typeof FORM_NAMES)[number];

export function isFormName(value: string): value is FormName {
  return (FORM_NAMES as readonly string[]).includes(value);
}
