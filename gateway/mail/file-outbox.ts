import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../time/clock';
import type { DevOutbox, OutgoingMessage, StoredMessage } from './mailer';

/**
 * The development outbox (ADR 0008): one JSON file per message under `DATA_DIR/outbox/`, so a
 * developer can open them and the browser tests can read a passcode back. Used while no SMTP_URL
 * is configured, and for SMS always.
 */
export class FileOutbox implements DevOutbox {
  constructor(
    private readonly dir: string,
    private readonly clock: Clock,
  ) {}

  async send(message: OutgoingMessage): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const sentAt = this.clock.now();
    const stored: StoredMessage = { id: randomUUID(), sentAt: sentAt.toISOString(), ...message };
    // The time first, so the names sort in sending order.
    const path = join(this.dir, `${sentAt.getTime()}-${stored.id}.json`);
    // Written aside, then renamed: a gateway killed mid-write (crash safety: SIGKILL loses no acknowledged write) leaves no half message for the reader to choke on.
    await writeFile(`${path}.partial`, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    await rename(`${path}.partial`, path);
  }

  async messagesTo(to: string): Promise<StoredMessage[]> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((name) => name.endsWith('.json'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const wanted = to.trim().toLowerCase();
    const messages = await Promise.all(names.map(async (name) => JSON.parse(await readFile(join(this.dir, name), 'utf8')) as StoredMessage));
    return messages.filter((message) => message.to.toLowerCase() === wanted).sort((a, b) => b.sentAt.localeCompare(a.sentAt) || b.id.localeCompare(a.id));
  }
}
