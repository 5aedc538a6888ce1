/** The build-time variables the app reads from import.meta.env (Vite types the rest as any). */
interface ImportMetaEnv {
  /** hCaptcha's site key (README "Environment"); unset, the offline development captcha. */
  readonly VITE_HCAPTCHA_SITE_KEY?: string;
}
