import { pino, type DestinationStream, type Logger, type SerializerFn } from 'pino';
import { PinoPretty } from 'pino-pretty';
import { BufferedStdout } from './fast-http/buffered-stdout.js';
import { loggedError } from './logged-error.js';

/**
 * Paths pino blanks wherever they appear. Request and response serialisers
 * already log no headers or bodies; this is the second line of defence.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-app-secret-key"]',
  'req.headers.cookie',
  'access_token',
  'app_secret_key',
  'patient_name',
  'patient_phone',
  'reference',
  '*.access_token',
  '*.app_secret_key',
  '*.patient_name',
  '*.patient_phone',
  '*.reference',
];

/** How long an exit waits for the buffered lines to be written (a pipe nobody reads must not hold it). */
export const EXIT_FLUSH_TIMEOUT_MS = 2000;

/** `err` fields through loggedError; a value that is not an Error (already summarised) is kept as it is. */
const errorSerializer: SerializerFn = (value: unknown) => (value instanceof Error ? loggedError(value) : value);

/**
 * Structured JSON logs (pino); never a secret, a token, a patient's name or
 * phone, or a booking reference. When no destination is passed and stdout is
 * a terminal (someone is watching `npm start`), the same lines are printed by
 * pino-pretty instead, after redaction; anywhere else (tests, containers, a
 * pipe to a log shipper) they stay one JSON object per line, written to
 * stdout asynchronously in batches (BufferedStdout), and flushed on exit.
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  { isTTY = process.stdout.isTTY === true }: { isTTY?: boolean } = {},
): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, serializers: { err: errorSerializer } };
  if (destination) return pino(options, destination);
  if (isTTY) return pino(options, prettyTerminal());
  return pino(options, new BufferedStdout());
}

/**
 * Exits with `code` once every line logged so far has been written, or after
 * EXIT_FLUSH_TIMEOUT_MS if the destination is stuck. The flush at exit itself
 * is synchronous and skips a write the thread pool has not finished yet; this
 * waits for it.
 */
export function exitAfterLogsFlushed(logger: Logger, code: number): void {
  const exit = () => process.exit(code);
  setTimeout(exit, EXIT_FLUSH_TIMEOUT_MS);
  logger.flush(exit);
}

/** pino-pretty as a stream in this thread (no worker), writing through process.stdout. */
function prettyTerminal(): DestinationStream {
  return PinoPretty({
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    destination: process.stdout,
    sync: true,
  });
}
