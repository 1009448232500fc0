import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger, type SerializerFn } from 'pino';
import { devPackageMissing, isNotInstalled } from './dev-package.js';
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
 * pino-pretty is a development package: in a production install without it,
 * a terminal gets the JSON lines too, after one line saying why.
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  { isTTY = process.stdout.isTTY === true }: { isTTY?: boolean } = {},
): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, serializers: { err: errorSerializer } };
  if (destination) return pino(options, destination);
  if (!isTTY) return pino(options, new BufferedStdout());
  const pretty = prettyTerminal();
  if (pretty) return pino(options, pretty);
  const logger = pino(options, new BufferedStdout());
  logger.info(`${devPackageMissing('pino-pretty', 'Readable logs in a terminal')}: JSON lines instead`);
  return logger;
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

/** Loads a package at run time, so that one a production install leaves out is needed only where it is used. */
const loadPackage = createRequire(import.meta.url);

/** pino-pretty as a stream in this thread (no worker), writing through process.stdout; undefined when it is not installed. */
function prettyTerminal(): DestinationStream | undefined {
  let pinoPretty: typeof import('pino-pretty');
  try {
    pinoPretty = loadPackage('pino-pretty') as typeof import('pino-pretty');
  } catch (error) {
    if (isNotInstalled(error, 'pino-pretty')) return undefined;
    throw error;
  }
  return pinoPretty.PinoPretty({
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    destination: process.stdout,
    sync: true,
  });
}
