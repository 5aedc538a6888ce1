import pino, { type DestinationStream, type Logger } from 'pino';
import { REDACTED, scrubJsonLine, withoutQuery } from './scrub-secrets';
import { serializeError } from './serialize-error';

/**
 * The gateway's structured JSON logger (Fastify runs on it). Four layers keep secrets out:
 * requests are logged as method + path only (no query string, no headers, no bodies; one line
 * each, `request-log.ts`); errors keep only members that name no data (no SQL parameters, statements or quoted
 * rows, `serialize-error.ts`); well-known secret keys are redacted if anyone logs them; and every
 * finished line passes the card-number scrubber before it is written.
 */
export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  const destination = options.destination ?? pino.destination({ dest: 1, sync: true });
  const scrubbing: DestinationStream = { write: (line) => destination.write(scrubJsonLine(line)) };
  return pino(
    {
      level: options.level ?? 'info',
      serializers: {
        req: (request: { method?: string; url?: string }) => ({ method: request.method, url: withoutQuery(request.url ?? '') }),
        res: (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode }),
        err: serializeError,
      },
      redact: { paths: SECRET_PATHS, censor: REDACTED },
    },
    scrubbing,
  );
}

const SECRET_KEYS = [
  'password',
  'passcode',
  'otp',
  'token',
  'access_token',
  'refresh_token',
  'vba_token',
  'pan',
  'body',
  'backupCode',
  'backup_code',
  'backupCodes',
];
const SECRET_HEADERS = ['authorization', 'cookie', '"set-cookie"', '"x-xsrf-token"', '"x-hcaptcha-token"'];
const SECRET_PATHS = [
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`]),
  ...SECRET_HEADERS.flatMap((header) => [`headers[${header}]`, `*.headers[${header}]`]),
];
