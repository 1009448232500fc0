import { pino, type DestinationStream, type Logger } from 'pino';

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

/** Structured JSON logs (pino); never a secret, a token, a patient's name or phone, or a booking reference. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
