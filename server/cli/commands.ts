import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { AppointmentStatus } from '../../contract/index.js';
import type { Clock } from '../../platform/clock.js';
import type { Database, Db } from '../db/database.js';
import { engineOfUrl } from '../db/engine.js';
import { sqlitePathFromUrl } from '../db/sqlite.js';
import { AuthService } from '../auth/auth.service.js';
import { KeyStore } from '../auth/key.store.js';
import { TokenStore } from '../auth/token.store.js';
import { AppointmentStore } from '../appointments/appointment.store.js';
import { PatientDataStore } from '../appointments/patient-data.store.js';
import { purgeExpired } from '../appointments/retention.js';
import { isPhoneNumber, MIN_PHONE_DIGITS } from '../../contract/rules/patterns.js';
import { BookingRulesInput } from '../clinics/booking-rules.js';
import { ClinicFile } from '../clinics/clinic-file.js';
import { ClinicStore } from '../clinics/clinic.store.js';
import { DestinationTaken, writeNewFile } from './write-new-file.js';
import { describeIssues } from '../../platform/validation.js';
import { patientHash } from '../../platform/patient-hash.js';
import { demoClinic } from '../demo/demo-clinic.js';
import { secondDemoClinic } from '../demo/second-demo-clinic.js';

export interface CliDeps {
  /** The open database: its Kysely, its engine for the stores that lock on PostgreSQL, and SQLite's backup. */
  database: Pick<Database, 'kysely' | 'engine' | 'backup'>;
  clock: Clock;
  publicUrl: string;
  /** RETENTION_DAYS, for `appointments purge`. */
  retentionDays: number;
  /** A line for the person at the terminal (stderr), apart from the JSON result. */
  tell?: (line: string) => void;
  /** Writes one audit record (a patient's data read or erased); it names no patient (patientHash). */
  audit?: (record: Record<string, unknown>) => void;
}

/** A mistake in how the command was called or what it names; printed as one line. */
export class CliError extends Error {}

export const USAGE = `usage: clinic <command>
  clinic create --file clinic.json        create a clinic; prints {"care_id": N}
  clinic rules --clinic N                 the clinic's booking rules
  clinic set-rules --clinic N [--min-notice-minutes M] [--horizon-days D] [--default-duration-minutes L]
                                          change some of them; prints them all
  keys create --clinic N                  new key pair; the secret is shown only this once
  keys list --clinic N                    the clinic's keys (never secrets)
  keys revoke --key K                     revoke a key and every token issued to it
  appointments list --clinic N            the clinic's appointments
  appointments set-status --id N --status Scheduled|Cancelled|Completed
  appointments purge                      anonymise appointments past RETENTION_DAYS; prints how many
  patients export --clinic N --phone P    every appointment of that phone, as JSON (writes an audit line)
  patients erase --clinic N --phone P     anonymise them now; prints how many (writes an audit line)
  backup --to FILE                        SQLite: a consistent copy while the server runs (PostgreSQL: pg_dump)
  seed-demo [--public-url URL] [--second] create the demo clinic and a key pair (--second: the other
                                          demo clinic, for npm run demo:sites)`;

type Options = Record<string, string | undefined> & { second?: boolean };

/** What each command runs with: the deps, and the database's Kysely as `db`. */
type CommandDeps = CliDeps & { db: Db };

/** A command recognised and its options parsed, ready to run against a database. */
export type ParsedCommand = (deps: CliDeps) => Promise<unknown>;

/**
 * Recognises the command and parses its options without touching the
 * database, so a mistyped command is refused before any file is created.
 */
export function parseCommand(argv: string[]): ParsedCommand {
  const [group, action, ...rest] = argv;
  const command = `${group ?? ''} ${action ?? ''}`.trim();
  const single = group === 'seed-demo' || group === 'backup';
  const handler = COMMANDS[command] ?? (single ? COMMANDS[group] : undefined);
  if (!handler) throw new CliError(command ? `unknown command: ${command}\n${USAGE}` : USAGE);
  const args = single ? argv.slice(1) : rest;
  const { values } = parseArgs({
    args,
    options: {
      file: { type: 'string' },
      clinic: { type: 'string' },
      key: { type: 'string' },
      id: { type: 'string' },
      status: { type: 'string' },
      phone: { type: 'string' },
      to: { type: 'string' },
      'public-url': { type: 'string' },
      second: { type: 'boolean' },
      'min-notice-minutes': { type: 'string' },
      'horizon-days': { type: 'string' },
      'default-duration-minutes': { type: 'string' },
    },
    strict: true,
  });
  return (deps) => handler(values as Options, { ...deps, db: deps.database.kysely });
}

const COMMANDS: Record<string, (options: Options, deps: CommandDeps) => Promise<unknown>> = {
  'clinic create': async ({ file }, { db, clock }) => {
    const path = required(file, '--file');
    let json: unknown;
    try {
      json = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      throw new CliError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const parsed = ClinicFile.safeParse(json);
    if (!parsed.success) throw new CliError(`invalid clinic file: ${describeIssues(parsed.error.issues)}`);
    return { care_id: await new ClinicStore(db).create(parsed.data, clock.now()) };
  },

  'clinic rules': async ({ clinic }, { db }) => {
    const careId = await existingClinic(clinic, db);
    return { care_id: careId, booking_rules: await new ClinicStore(db).bookingRules(careId) };
  },

  /** Changes the rules given and keeps the others; the result is checked whole (a notice beyond the horizon is refused). */
  'clinic set-rules': async (options, { db }) => {
    const careId = await existingClinic(options.clinic, db);
    const changes = Object.fromEntries(
      RULE_FLAGS.flatMap(([flag, field]) => (options[flag] === undefined ? [] : [[field, wholeNumber(options[flag], `--${flag}`)]])),
    );
    if (Object.keys(changes).length === 0) throw new CliError(`clinic set-rules needs at least one of ${RULE_FLAGS.map(([flag]) => `--${flag}`).join(', ')}`);
    const clinics = new ClinicStore(db);
    const parsed = BookingRulesInput.safeParse({ ...(await clinics.bookingRules(careId)), ...changes });
    if (!parsed.success) {
      throw new CliError(parsed.error.issues.map((issue) => `--${String(issue.path[0]).replaceAll('_', '-')} ${issue.message}`).join('; '));
    }
    await clinics.setBookingRules(careId, parsed.data);
    return { care_id: careId, booking_rules: parsed.data };
  },

  'keys create': async ({ clinic }, deps) => {
    const careId = await existingClinic(clinic, deps.db);
    return authService(deps).createKeyPair(careId);
  },

  'keys list': async ({ clinic }, { db }) => new KeyStore(db).listForClinic(await existingClinic(clinic, db)),

  'keys revoke': async ({ key }, { db, clock }) => {
    const appKey = required(key, '--key');
    if (!(await new KeyStore(db).revoke(appKey, clock.now()))) throw new CliError(`no active key ${appKey}`);
    return { revoked: appKey };
  },

  'appointments list': async ({ clinic }, { db, database }) =>
    new AppointmentStore(db, database.engine).listForClinic(await existingClinic(clinic, db)),

  'appointments set-status': async ({ id, status }, { db, database }) => {
    const appointmentId = positiveInteger(id, '--id');
    const parsed = AppointmentStatus.safeParse(status);
    if (!parsed.success) throw new CliError('--status must be Scheduled, Cancelled or Completed');
    await db.transaction().execute(async (trx) => {
      const appointments = new AppointmentStore(trx, database.engine);
      const appointment = await appointments.find(appointmentId);
      if (!appointment) throw new CliError(`no appointment ${appointmentId}`);
      // Scheduled again, it holds its dentist again: refused, as a booking would be, once that time is taken.
      if (parsed.data === 'Scheduled' && appointment.status !== 'Scheduled' && appointment.doctor_id !== null) {
        const { appointment_date: date, appointment_time: start, end_time: end } = appointment;
        const overlap = await appointments.findOverlap(appointment.doctor_id, date, start, end, appointmentId);
        if (overlap) {
          throw new CliError(
            `appointment ${appointmentId} cannot be Scheduled again: its dentist has appointment ${overlap.appointment_id} ` +
              `from ${overlap.appointment_time} to ${overlap.end_time} on ${date}`,
          );
        }
      }
      await appointments.setStatus(appointmentId, parsed.data);
    });
    return { appointment_id: appointmentId, status: parsed.data };
  },

  /** Retention now, as the server runs it at start and daily (RETENTION_DAYS). */
  'appointments purge': async (_options, { database, clock, retentionDays }) => {
    if (retentionDays === 0) throw new CliError('RETENTION_DAYS is 0, which keeps patient data forever: set it to the days to keep');
    return purgeExpired(database, clock.now(), retentionDays);
  },

  /** GDPR Art. 15: everything stored about the patient who booked with this phone, in this clinic. */
  'patients export': async (options, deps) => {
    const { careId, phone } = await patientOf(options, deps.db);
    const appointments = await new PatientDataStore(deps.db, deps.database.engine).appointmentsOf(careId, phone);
    deps.audit?.({ action: 'patients export', care_id: careId, patient: patientHash(phone), appointments: appointments.length });
    return appointments;
  },

  /** GDPR Art. 17: the patient's appointments anonymised now, as retention would later. */
  'patients erase': async (options, deps) => {
    const { careId, phone } = await patientOf(options, deps.db);
    const store = new PatientDataStore(deps.db, deps.database.engine);
    const ids = (await store.appointmentsOf(careId, phone)).map((appointment) => appointment.appointment_id);
    const anonymised = await store.anonymise(ids);
    await store.forgetAnswersOf(careId, ids);
    await store.forget(deps.clock.now());
    deps.audit?.({ action: 'patients erase', care_id: careId, patient: patientHash(phone), anonymised });
    return { anonymised };
  },

  /** SQLite's online backup: consistent, while the server keeps booking. */
  backup: async ({ to }, { database }) => {
    const destination = required(to, '--to');
    if (!database.backup) throw new CliError('backup copies SQLite files only: on PostgreSQL use pg_dump (docs/operations.md)');
    const backup = database.backup;
    try {
      // SQLite opens the file it copies to by name, following a link there: writeNewFile gives it one that cannot be.
      await writeNewFile(destination, backup);
    } catch (error) {
      if (error instanceof DestinationTaken) {
        throw new CliError(error.symlink ? `${destination} is a symbolic link: back up to a new file, not through a link` : `${destination} exists: back up to a new file`);
      }
      throw new CliError(`cannot write ${destination}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { backup: destination };
  },

  /**
   * The demo clinic and a key pair. Run again on a database that holds it, it
   * creates no second clinic: it says so and makes a new key pair for the one
   * there (secrets are shown only once, so the old one cannot be printed again).
   */
  'seed-demo': async (options, deps) => {
    const clinic = options.second ? secondDemoClinic : demoClinic;
    const file = ClinicFile.parse(clinic(options['public-url'] ?? deps.publicUrl));
    const clinics = new ClinicStore(deps.db);
    const existing = await clinics.findByName(file.organization.name);
    if (existing !== undefined) {
      deps.tell?.(`The demo clinic is already in this database (care_id ${existing}): no second clinic; a new key pair for it.`);
      return { care_id: existing, existing: true, ...(await authService(deps).createKeyPair(existing)) };
    }
    const careId = await clinics.create(file, deps.clock.now());
    return { care_id: careId, ...(await authService(deps).createKeyPair(careId)) };
  },
};

const authService = ({ db, clock }: CommandDeps) => new AuthService(new KeyStore(db), new TokenStore(db), clock);

function required(value: string | undefined, flag: string): string {
  if (!value) throw new CliError(`${flag} is required`);
  return value;
}

/** Each flag of `clinic set-rules` and the booking rule it sets (the clinic file's and the table's name). */
const RULE_FLAGS = [
  ['min-notice-minutes', 'min_notice_minutes'],
  ['horizon-days', 'horizon_days'],
  ['default-duration-minutes', 'default_duration_minutes'],
] as const;

/** A whole number written in digits; its range is the caller's to check. */
function wholeNumber(value: string | undefined, flag: string): number {
  if (!value || !/^\d{1,9}$/.test(value)) throw new CliError(`${flag} must be a whole number`);
  return Number(value);
}

function positiveInteger(value: string | undefined, flag: string): number {
  const text = required(value, flag);
  if (!/^[1-9]\d{0,15}$/.test(text)) throw new CliError(`${flag} must be a positive integer`);
  return Number(text);
}

/**
 * Refuses, before the database is opened (which would create it), a command
 * that copies the database when DATABASE_URL names a SQLite file that is not
 * there: a mistyped path would otherwise give an empty backup.
 */
export function refuseMissingSqliteFile(argv: string[], databaseUrl: string): void {
  if (argv[0] !== 'backup' || engineOfUrl(databaseUrl) !== 'sqlite') return;
  const path = sqlitePathFromUrl(databaseUrl);
  if (path !== ':memory:' && !existsSync(path)) throw new CliError(`no SQLite database at ${path}: check DATABASE_URL`);
}

/** The clinic and phone of `patients export` and `patients erase`, checked. */
async function patientOf({ clinic, phone }: Options, db: Db): Promise<{ careId: number; phone: string }> {
  const careId = await existingClinic(clinic, db);
  const given = required(phone, '--phone');
  if (!isPhoneNumber(given)) throw new CliError(`--phone must be a phone number (digits, spaces, + ( ) - . /, at least ${MIN_PHONE_DIGITS} digits)`);
  return { careId, phone: given };
}

async function existingClinic(value: string | undefined, db: Db): Promise<number> {
  const careId = positiveInteger(value, '--clinic');
  if (!(await new ClinicStore(db).exists(careId))) throw new CliError(`no clinic ${careId}`);
  return careId;
}
