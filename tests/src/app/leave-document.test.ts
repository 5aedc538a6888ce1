// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { isLeavingDocument, leaveDocumentFor } from '../../../src/app/leave-document';

// SPEC §7 OIDC logout: once the page goes to the provider's end-session URL, a late 401's sign-in
// reload (SPEC §8) must not replace that navigation (src/main.tsx goToSignIn reads this flag).
describe('leaving the document', () => {
  it('is not leaving until asked, then is, and the browser is sent to the target', () => {
    expect(isLeavingDocument()).toBe(false);
    const sent: string[] = [];
    leaveDocumentFor('https://idp.example/logout?x=1', (target) => sent.push(target));
    expect(sent).toEqual(['https://idp.example/logout?x=1']);
    expect(isLeavingDocument()).toBe(true);
  });

  it('stays again when the browser restores the page from the back-forward cache', () => {
    leaveDocumentFor('https://idp.example/logout', () => undefined);
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: false }));
    expect(isLeavingDocument()).toBe(true);
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    expect(isLeavingDocument()).toBe(false);
  });
});
