import { randomUUID } from 'node:crypto';
import type { Clock } from '../time/clock';
import type { DevOutbox, OutgoingMessage, StoredMessage } from './mailer';

/** The outbox of a gateway built without a data directory (tests): the same reads, kept in memory. */
export class MemoryOutbox implements DevOutbox {
  private readonly messages: StoredMessage[] = [];

  constructor(private readonly clock: Clock) {}

  async send(message: OutgoingMessage): Promise<void> {
    this.messages.push({ id: randomUUID(), sentAt: this.clock.now().toISOString(), ...message });
  }

  async messagesTo(to: string): Promise<StoredMessage[]> {
    const wanted = to.trim().toLowerCase();
    return this.messages.filter((message) => message.to.toLowerCase() === wanted).reverse();
  }
}
