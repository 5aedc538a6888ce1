import type { APIRequestContext, Page } from 'playwright-core';
import { outboxMessages } from './sign-in-helpers';

/**
 * Helpers for the account lifecycle browser tests over the development outbox (ADR 0008)
 * and ADR 0009's mails: the activation link of the newest activation e-mail, and the activation with the
 * password chosen at registration.
 */
export async function activationLink(request: APIRequestContext, baseUrl: string, to: string, seenIds: ReadonlySet<string> = new Set()): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const fresh = (await outboxMessages(request, baseUrl, to)).filter((message) => !seenIds.has(message.id));
    const link = fresh.map((message) => message.text.match(/https?:\/\/\S+\/account\/activate\?token=[^\s]+/)?.[0]).find((found) => found !== undefined);
    if (link) return link;
    if (Date.now() > deadline) throw new Error(`no activation e-mail for ${to} in the dev outbox`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The subjects of every message to `to` so far, newest first (the outbox order). */
export async function outboxSubjects(request: APIRequestContext, baseUrl: string, to: string): Promise<string[]> {
  return (await outboxMessages(request, baseUrl, to)).map((message) => message.subject);
}

/**
 * ADR 0009 "Activation": the mailed link opens the activate page, which asks for the password chosen at
 * registration; typed and sent with the page's own button (the site's form, so any language).
 */
export async function activateWithPassword(page: Page, link: string, password: string): Promise<void> {
  await page.goto(link);
  await page.locator('main #root_password').fill(password);
  await page.locator('main .site-form button[type="submit"]').first().click();
}
