import { pino, type DestinationStream, type Logger } from 'pino';
import { PinoPretty } from 'pino-pretty';

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

/**
 * Structured JSON logs (pino); never a secret, a token, a patient's name or
 * phone, or a booking reference. When no destination is passed and stdout is
 * a terminal (someone is watching `npm start`), the same lines are printed by
 * pino-pretty instead, after redaction; anywhere else (tests, containers, a
 * pipe to a log shipper) they stay one JSON object per line.
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  { isTTY = process.stdout.isTTY === true }: { isTTY?: boolean } = {},
): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  if (destination) return pino(options, destination);
  if (isTTY) return pino(options, prettyTerminal());
  return pino(options);
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
