import type { APIRequestContext } from 'playwright-core';
import { outboxMessages } from './sign-in-helpers';

/**
 * Helpers for the account lifecycle browser tests over the development outbox (ADR 0008)
 * and ADR 0009's mails: the activation link of the newest activation e-mail.
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
