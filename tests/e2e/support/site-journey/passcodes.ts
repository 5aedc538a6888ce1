import type { APIRequestContext } from 'playwright-core';
import { outboxMessages } from '../sign-in-helpers';

/** The ids of every outbox message to any of `destinations` so far. */
export async function outboxIdsOf(request: APIRequestContext, baseUrl: string, destinations: readonly string[]): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const to of destinations) for (const message of await outboxMessages(request, baseUrl, to)) ids.add(message.id);
  return ids;
}

/**
 * The 6-digit passcode of the first new message to any of `destinations` (the e-mail address or the
 * phone: the gateway texts an `sms` site's code and mails it when no phone is held), read from the
 * target's development outbox, so it works the same against one gateway or several behind one port.
 */
export async function passcodeTo(request: APIRequestContext, baseUrl: string, destinations: readonly string[], seen: ReadonlySet<string>): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    for (const to of destinations) {
      // The newest fresh message that carries a code: an account notice (password changed, …) carries none.
      const fresh = (await outboxMessages(request, baseUrl, to)).filter((message) => !seen.has(message.id));
      const code = fresh.map((message) => message.text.match(/\b(\d{6})\b/)?.[1]).find((found) => found !== undefined);
      if (code) return code;
    }
    if (Date.now() > deadline) throw new Error(`no new passcode for ${destinations.join(' or ')} in the dev outbox`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
