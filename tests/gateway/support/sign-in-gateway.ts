import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { CounterStore } from '../../../gateway/limits/counter-store';
import { migrate } from '../../../gateway/db/migrate';
import { MemoryOutbox } from '../../../gateway/mail/memory-outbox';
import { buildGateway } from '../../../gateway/server';
import { AdjustableClock } from '../../../gateway/time/clock';
import type { DatabaseLeg, TestDatabase } from './database-legs';
import { realFixtures } from './test-gateway';

/** A test-mode gateway on a fresh database of `leg`, with its clock, outbox and token key in reach. */
export interface SignInGateway {
  app: FastifyInstance;
  test: TestDatabase;
  clock: AdjustableClock;
  outbox: MemoryOutbox;
  tokenSigningKey: Buffer;
  /** The 6-digit code of the newest message to `to`. */
  latestCode(to: string): Promise<string>;
  dispose(): Promise<void>;
}

export async function openSignInGateway(leg: DatabaseLeg, options: { logger?: FastifyBaseLogger; counters?: CounterStore } = {}): Promise<SignInGateway> {
  const test = await leg.open();
  await migrate(test.db);
  const clock = new AdjustableClock();
  const outbox = new MemoryOutbox(clock);
  const tokenSigningKey = randomBytes(32);
  const app = await buildGateway({
    db: test.db,
    fixtures: await realFixtures(),
    testMode: true,
    ...(options.logger ? { logger: options.logger } : {}),
    auth: { clock, devOutbox: outbox, tokenSigningKey, ...(options.counters ? { counters: options.counters } : {}) },
  });
  return {
    app,
    test,
    clock,
    outbox,
    tokenSigningKey,
    async latestCode(to) {
      const [message] = await outbox.messagesTo(to);
      const code = /\b(\d{6})\b/.exec(message?.text ?? '')?.[1];
      if (code === undefined) throw new Error(`no passcode was sent to ${to}`);
      return code;
    },
    async dispose() {
      await app.close();
      await test.dispose();
    },
  };
}
