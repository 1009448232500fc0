import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { isPhoneNumber, MIN_PHONE_DIGITS } from '../../contract/rules/patterns.js';
import type { Clock } from '../../platform/clock.js';
import { patientHash } from '../../platform/patient-hash.js';
import { emailAddress } from '../notifications/notification-settings.js';
import { erasePatient, erasePatientEmail, normalisedEmail } from '../outbox/patient-erasure.js';
import type { SitesDatabase } from '../sites/sites-database.js';
import { CliError } from './sites-commands.js';

/**
 * `bff patients <command>`: a patient's request, answered in the BFF's own
 * database as `clinic patients` answers it in the server's (docs/privacy.md,
 * "Answering a patient's request"). The patient is named by phone, or by the
 * e-mail address they gave for confirmations and reminders, which is never
 * printed or logged: the audit line carries its hash (patientHash, emailHash).
 */

export interface PatientsCliDeps {
  database: Pick<SitesDatabase, 'db' | 'engine'>;
  clock: Clock;
  /** One audit line per request answered: the same keys as the server's (action, counts, time, patient hash). */
  audit: (record: { at: string; action: string; patient: string; [count: string]: unknown }) => void;
}

export const PATIENTS_USAGE = `usage: bff patients <command>
  patients erase --phone P                                     delete that phone's booking records and outbox messages
                                                               on every site; prints how many (writes an audit line)
  patients erase --email ADDR                                  delete that address and the messages to it on every
                                                               site; prints how many (writes an audit line)`;

type Command = (args: string[]) => (deps: PatientsCliDeps) => Promise<unknown>;

/** Recognises the command and checks its flags before the database is opened, so bad input touches nothing. */
export function parsePatientsCommand(argv: string[]): (deps: PatientsCliDeps) => Promise<unknown> {
  const [group, action, ...args] = argv;
  const parse = group === 'patients' && action ? COMMANDS[action] : undefined;
  if (!parse) {
    const named = [group, action].filter(Boolean).join(' ');
    throw new CliError(named && action ? `unknown command: ${named} (patients ${Object.keys(COMMANDS).join(', ')})` : PATIENTS_USAGE);
  }
  return parse(args);
}

const COMMANDS: Record<string, Command> = {
  /**
   * GDPR Art. 17: the booking records and outbox messages of that phone, or
   * the kept address and the messages to it, deleted now rather than after
   * their retention.
   */
  erase: (args) => {
    const patient = patientOf(args);
    if ('email' in patient) {
      const { email } = patient;
      return async ({ database, clock, audit }) => {
        const erased = await erasePatientEmail(database.db, database.engine, email);
        const counts = { patient_mail: erased.patientMail, outbox_messages: erased.outboxMessages };
        audit({ at: clock.now().toISOString(), action: 'patients erase', patient: emailHash(email), ...counts });
        return counts;
      };
    }
    const { phone } = patient;
    return async ({ database, clock, audit }) => {
      const erased = await erasePatient(database.db, database.engine, phone);
      const counts = { booking_records: erased.bookingRecords, outbox_messages: erased.outboxMessages };
      audit({ at: clock.now().toISOString(), action: 'patients erase', patient: patientHash(phone), ...counts });
      return counts;
    };
  },
};

/**
 * The --phone (checked as the server's CLI checks it) or the --email given,
 * one of them; a refusal never repeats either (it is patient data).
 */
function patientOf(args: string[]): { phone: string } | { email: string } {
  const { values } = parseArgs({ args, options: { phone: { type: 'string' }, email: { type: 'string' } }, strict: true });
  if (values.phone !== undefined && values.email !== undefined) throw new CliError('--phone and --email cannot go together: erase one at a time');
  if (values.email !== undefined) {
    if (!emailAddress.safeParse(values.email).success) throw new CliError('--email must be one e-mail address, e.g. patient@example.com');
    return { email: values.email };
  }
  if (!values.phone) throw new CliError('--phone or --email is required');
  if (!isPhoneNumber(values.phone)) {
    throw new CliError(`--phone must be a phone number (digits, spaces, + ( ) - . /, at least ${MIN_PHONE_DIGITS} digits)`);
  }
  return { phone: values.phone };
}

/**
 * Who an audit line of `erase --email` is about, without the address: the
 * first 16 hex digits of the SHA-256 of the address as erasure compares it
 * (trimmed, lower-cased), under a label of its own so that it never equals
 * a phone's hash. The same address gets the same value in every line.
 */
export function emailHash(email: string): string {
  return createHash('sha256').update(`email\0${normalisedEmail(email)}`).digest('hex').slice(0, 16);
}
