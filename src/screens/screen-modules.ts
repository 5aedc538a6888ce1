import type { ComponentType } from 'react';
import type { AccountRoute } from '../app/route-names';

/**
 * One lazily loaded module per screen (route-level code splitting, SPEC §2): a route fetches only
 * its own screen's code. Each module exports `Component`, as react-router's `lazy` expects.
 */
export const SCREEN_MODULES: Readonly<Record<AccountRoute, () => Promise<{ Component: ComponentType }>>> = {
  login: () => import('./LoginScreen'),
  'login-form': () => import('./LoginScreen'),
  activate: () => import('./ActivateScreen'),
  'login-otp': () => import('./LoginOtpScreen'),
  'login-otp-preference': () => import('./LoginOtpPreferenceScreen'),
  profile: () => import('./ProfileScreen'),
  'edit-profile': () => import('./EditProfileScreen'),
  'mfa-setup': () => import('./MfaSetupScreen'),
  'delete-profile': () => import('./DeleteProfileScreen'),
  'edit-pan': () => import('./ManageCardsScreen'),
  'cashback-statement': () => import('./CashbackStatementScreen'),
  'site-settings': () => import('./SiteSettingsScreen'),
  registration: () => import('./RegistrationScreen'),
  'add-pan': () => import('./AddCardScreen'),
  password: () => import('./PasswordScreen'),
  'compromised-credentials': () => import('./CompromisedCredentialsScreen'),
  'resend-activation': () => import('./ResendActivationScreen'),
  recovery: () => import('./RecoveryScreen'),
  'reset-password': () => import('./ResetPasswordScreen'),
  'secure-account': () => import('./SecureAccountScreen'),
  passcode: () => import('./PasscodeScreen'),
  'passcode-preference': () => import('./PasscodePreferenceScreen'),
  'otp-check-preference': () => import('./OtpCheckPreferenceScreen'),
  'otp-check-passcode': () => import('./OtpCheckPasscodeScreen'),
  logout: () => import('./LogoutScreen'),
  'redirect-sso': () => import('./RedirectSsoScreen'),
  'sso-simulator': () => import('./SsoSimulatorScreen'),
  concierge: () => import('./concierge/ConciergeScreen'),
  'signed-in-devices': () => import('./SignedInDevicesScreen'),
};
