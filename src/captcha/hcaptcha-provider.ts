import { isCaptchaLanguageCode } from '../../schemas/validators/captcha';
import type { CaptchaProvider } from '../api/gateway-api';

/** SPEC §8: the message a missing site key throws, word for word. */
export const MISSING_SITE_KEY_MESSAGE = 'hCAPTCHA site key not defined';
/** SPEC §9 "Captcha load delay 1 ms": the script is added after the page's own work. */
export const CAPTCHA_LOAD_DELAY_MS = 1;
export const HCAPTCHA_SCRIPT_URL = 'https://js.hcaptcha.com/1/api.js';
/** The global the script calls once it is ready (its `onload` parameter): a named function, no inline script. */
export const HCAPTCHA_ONLOAD_CALLBACK = 'portalHcaptchaLoaded';

/** The part of hCaptcha's JavaScript API this provider uses (explicit rendering, invisible widget). */
export interface HcaptchaApi {
  render(container: HTMLElement, options: { sitekey: string; size: 'invisible'; hl?: string }): string;
  execute(widgetId: string, options: { async: true }): Promise<{ response: string }>;
  reset(widgetId: string): void;
}

type HcaptchaWindow = Window & { hcaptcha?: HcaptchaApi } & Record<string, unknown>;

export interface HcaptchaOptions {
  siteKey: string | undefined;
  /** The page's language tag (`ar-QA`), for hCaptcha's `hl`; refused unless it is word characters and hyphens (SPEC §5). */
  language?: () => string;
  window?: HcaptchaWindow;
}

/**
 * SPEC §7 captcha: hCaptcha's invisible widget behind the app's `CaptchaProvider`. The script comes
 * from hCaptcha's host, added 1 ms after the first token is asked for (§9); each token is read with
 * `execute` and the widget is reset after it, so the next call gets a fresh one. Any error resets
 * the widget (§8) and rejects; the gateway client then sends an empty X-HCAPTCHA-TOKEN (§7).
 * Throws at once when there is no site key (§8).
 */
export function createHcaptchaProvider(options: HcaptchaOptions): CaptchaProvider {
  if (!options.siteKey) throw new Error(MISSING_SITE_KEY_MESSAGE);
  const siteKey = options.siteKey;
  const win = options.window ?? (window as unknown as HcaptchaWindow);
  let api: Promise<HcaptchaApi> | null = null;
  let widgetId: string | null = null;

  const load = (): Promise<HcaptchaApi> =>
    new Promise((resolve, reject) => {
      if (win.hcaptcha) {
        resolve(win.hcaptcha);
        return;
      }
      win[HCAPTCHA_ONLOAD_CALLBACK] = () => (win.hcaptcha ? resolve(win.hcaptcha) : reject(new Error('hCaptcha loaded without its API')));
      win.setTimeout(() => {
        const script = win.document.createElement('script');
        script.src = `${HCAPTCHA_SCRIPT_URL}?render=explicit&onload=${HCAPTCHA_ONLOAD_CALLBACK}`;
        script.async = true;
        script.addEventListener('error', () => reject(new Error('The hCaptcha script could not be loaded')));
        win.document.head.append(script);
      }, CAPTCHA_LOAD_DELAY_MS);
    });

  const widget = (hcaptcha: HcaptchaApi): string => {
    if (widgetId !== null) return widgetId;
    const container = win.document.createElement('div');
    container.className = 'captcha';
    win.document.body.append(container);
    const language = options.language?.();
    widgetId = hcaptcha.render(container, { sitekey: siteKey, size: 'invisible', ...(language && isCaptchaLanguageCode(language) ? { hl: language } : {}) });
    return widgetId;
  };

  return {
    token: async () => {
      // A failed load is forgotten, so the next token tries the script again.
      api ??= load().catch((error: unknown) => {
        api = null;
        throw error;
      });
      const hcaptcha = await api;
      const id = widget(hcaptcha);
      try {
        const { response } = await hcaptcha.execute(id, { async: true });
        return response;
      } finally {
        hcaptcha.reset(id);
      }
    },
  };
}
