import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { createLogger } from '../../../gateway/logging/create-logger';

/** The gateway's real logger at trace level, writing its JSON lines into `lines` for the log-secrecy tests. */
export function capturingLogger(): { logger: FastifyBaseLogger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger({ level: 'trace', destination }), lines };
}
