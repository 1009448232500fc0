import { parseArgs } from 'node:util';
import { isPhoneNumber, MIN_PHONE_DIGITS } from '../../contract/rules/patterns.js';
import type { Clock } from '../../platform/clock.js';
import { patientHash } from '../../platform/patient-hash.js';
import { erasePatient } from '../outbox/patient-erasure.js';
import type { SitesDatabase } from '../sites/sites-database.js';
import { CliError } from './sites-commands.js';

/**
 * `bff patients <command>`: a patient's request, answered in the BFF's own
 * database as `clinic patients` answers it in the server's (docs/privacy.md,
 * "Answering a patient's request"). The patient is named by phone, which is
 * never printed or logged: the audit line carries its hash (patientHash).
 */

export interface PatientsCliDeps {
  database: Pick<SitesDatabase, 'db' | 'engine'>;
  clock: Clock;
  /** One audit line per request answered: the same keys as the server's (action, counts, time, patient hash). */
  audit: (record: { at: string; action: string; patient: string; [count: string]: unknown }) => void;
}

export const PATIENTS_USAGE = `usage: bff patients <command>
  patients erase --phone P                                     delete that phone's booking records and outbox messages
                                                               on every site; prints how many (writes an audit line)`;

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
  /** GDPR Art. 17: the booking records and outbox messages of that phone, deleted now rather than after their retention. */
  erase: (args) => {
    const phone = phoneOf(args);
    return async ({ database, clock, audit }) => {
      const erased = await erasePatient(database.db, database.engine, phone);
      const counts = { booking_records: erased.bookingRecords, outbox_messages: erased.outboxMessages };
      audit({ at: clock.now().toISOString(), action: 'patients erase', patient: patientHash(phone), ...counts });
      return counts;
    };
  },
};

/** The --phone given, checked as the server's CLI checks it; a refusal never repeats it (it is patient data). */
function phoneOf(args: string[]): string {
  const { values } = parseArgs({ args, options: { phone: { type: 'string' } }, strict: true });
  if (!values.phone) throw new CliError('--phone is required');
  if (!isPhoneNumber(values.phone)) {
    throw new CliError(`--phone must be a phone number (digits, spaces, + ( ) - . /, at least ${MIN_PHONE_DIGITS} digits)`);
  }
  return values.phone;
}
