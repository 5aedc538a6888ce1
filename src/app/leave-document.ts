/**
 * Leaving this document for another one (the identity provider's end-session URL, a return URL on
 * another origin). Once the browser is asked to go, a later reaction of this page must not replace
 * that navigation: a request cancelled by the sign-out answers 401 (SPEC §8 authentication failure),
 * and its reload to sign-in would stop the provider's logout before it ends the provider's session
 * (SPEC §7 OIDC logout), leaving the person signed in there.
 */
let leaving = false;
let listening = false;

export function leaveDocumentFor(target: string, assign: (target: string) => void = (url) => window.location.assign(url)): void {
  if (!listening && typeof window !== 'undefined') {
    listening = true;
    // A page restored from the back-forward cache is this document again, staying.
    window.addEventListener('pageshow', (event) => {
      if (event.persisted) leaving = false;
    });
  }
  leaving = true;
  assign(target);
}

export function isLeavingDocument(): boolean {
  return leaving;
}
