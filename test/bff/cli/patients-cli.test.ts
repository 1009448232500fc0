import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChangeStore } from '../../../bff/changes/change-store.js';
import type { NotificationEvent } from '../../../bff/notifications/notification-event.js';
import { newMessageId } from '../../../bff/outbox/enqueue.js';
import type { OutboxChannel } from '../../../bff/outbox/outbox-message.js';
import { patientHash } from '../../../platform/patient-hash.js';
import { emailHash } from '../../../bff/cli/patients-commands.js';
import { ENGINES } from '../sites/support/sites-test-database.js';
import { auditLines, printed, refusal, sitesCli, sitesCliProcess, type CliResult } from '../sites/support/sites-cli.js';
import { outboxDatabase, type OutboxDatabase } from '../outbox/support/outbox-database.js';

const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR;

/** The patient who asks to be erased, booked under three spellings of one phone. */
const ERIN = 'Erin Erasable';
const ERIN_PHONES = ['+44 7700 900123', '+44 (7700) 900-123', '+447700900123'] as const;
/** Others, whose data stays: the same digits with the trunk prefix (another phone), a neighbour's number, no phone. */
const TOM = { name: 'Tom Trunkprefix', phone: '07700 900123' };
const NINA = { name: 'Nina Neighbour', phone: '+44 7700 900124' };
const NOPHONE = { name: 'Pat Phoneless', phone: null };
/** Bookings upstream made now, not replays. */
const NEW = { replayed: false };

/** A booking.created event (or a cancel request) naming `patient`, as the booking path queues it. */
function event(siteId: string, appointmentId: number, patient: { name: string; phone: string | null }, type: NotificationEvent['type'] = 'booking.created'): NotificationEvent {
  return {
    type,
    occurred_at: '2026-11-23T09:00:00.000Z',
    site_id: siteId,
    reference: 'K7QM-4XRT',
    appointment_id: appointmentId,
    appointment: { date: '2026-11-25', time: '10:30', doctor_id: 2, dentist_name: 'Dr Okafor', treatment_id: 3, treatment_name: 'Check-up' },
    patient,
    ...(type === 'booking.cancel_requested' ? { message: 'Something came up' } : {}),
  };
}

// Each command runs in this process (bff/cli/run-cli.ts through sites-cli.ts), on the real clock; the last suite runs the real process.
describe.each(ENGINES)('npm run bff -- patients erase, on %s', { timeout: 60_000 }, (engine) => {
  let outbox: OutboxDatabase;
  const outputs: CliResult[] = [];
  const cli = async (...args: string[]) => {
    const result = await sitesCli(['patients', ...args], { DATABASE_URL: outbox.testDb.url });
    outputs.push(result);
    return result;
  };
  const db = () => outbox.database.db;

  beforeAll(async () => {
    outbox = await outboxDatabase(engine);
  });
  afterAll(async () => {
    // Whatever any command printed, never the patient it was about.
    const text = outputs.map((result) => result.stdout + result.stderr).join('\n');
    expect(text).not.toContain('Erin');
    expect(text).not.toMatch(/7700|900123/);
    await outbox.close();
  });
  beforeEach(async () => {
    for (const table of ['booking_records', 'change_requests', 'outbox_messages'] as const) await db().deleteFrom(table).execute();
  });

  /**
   * Erin's bookings on three sites, one under each spelling of her phone, with their messages in every state
   * (and a cancel request's); the others' bookings and messages beside them. Returns each side's keys.
   */
  async function seed(now: number) {
    const store = new ChangeStore(db());
    const book = async (siteId: string, appointmentId: number, patient: { name: string; phone: string | null }, channels: OutboxChannel[]) => {
      const messages = channels.map((channel) => ({ id: newMessageId(), channel, event: event(siteId, appointmentId, patient) }));
      const record = { siteId, appointmentId, date: '2026-11-25', time: '10:30', doctorId: 2, treatmentId: 3, phone: patient.phone, forgetAt: now + WEEK };
      expect(await store.recordBooking(record, messages, now, NEW)).toBe(true);
      return messages.map((message) => message.id);
    };
    const [northEmail, northWebhook] = await book('cbs_north', 101, { name: ERIN, phone: ERIN_PHONES[0] }, ['email', 'webhook']);
    const [southWebhook] = await book('cbs_south', 201, { name: ERIN, phone: ERIN_PHONES[1] }, ['webhook']);
    await book('default', 301, { name: ERIN, phone: ERIN_PHONES[2] }, []);
    const cancel = { id: newMessageId(), channel: 'email' as const, event: event('cbs_north', 101, { name: ERIN, phone: ERIN_PHONES[0] }, 'booking.cancel_requested') };
    await store.recordChangeRequest({ siteId: 'cbs_north', appointmentId: 101, kind: 'cancel', preferredStarts: [], forgetAt: now + WEEK }, [cancel], now);
    const others = [
      ...(await book('cbs_north', 102, TOM, ['email'])),
      ...(await book('cbs_south', 202, NINA, ['webhook'])),
      ...(await book('default', 302, NOPHONE, ['webhook'])),
    ];

    // Erin's messages: one delivered, one dead, two still pending (one between tries).
    await outbox.store.claimDue('patients-test', 100, 60_000, now);
    expect(await outbox.store.markDelivered(northEmail!, 'patients-test', now)).toBe(true);
    expect(await outbox.store.markDead(southWebhook!, 'patients-test', 'http_410', now)).toBe(true);
    expect(await outbox.store.scheduleRetry(northWebhook!, 'patients-test', now + 60_000, 'http_503')).toBe(true);
    return {
      erin: { records: [['cbs_north', 101], ['cbs_south', 201], ['default', 301]], messages: [northEmail!, northWebhook!, southWebhook!, cancel.id] },
      others: { records: [['cbs_north', 102], ['cbs_south', 202], ['default', 302]], messages: others },
    };
  }

  const recordKeys = async () =>
    (await db().selectFrom('booking_records').select(['site_id', 'appointment_id']).orderBy('site_id').orderBy('appointment_id').execute()).map((row) => [
      row.site_id,
      Number(row.appointment_id),
    ]);
  const messageIds = async () => (await db().selectFrom('outbox_messages').select('id').execute()).map((row) => row.id).sort();

  it('deletes the booking records and messages of every spelling of the phone, on every site and in every state', async () => {
    const { others } = await seed(Date.now());

    const result = await cli('erase', '--phone', '+44 7700 900123');

    expect(printed(result)).toEqual({ booking_records: 3, outbox_messages: 4 });
    expect(await recordKeys()).toEqual(others.records);
    expect(await messageIds()).toEqual([...others.messages].sort());
  });

  it('finds the patient whichever spelling the request gives', async () => {
    await seed(Date.now());

    expect(printed(await cli('erase', '--phone', '+44-7700-900 123'))).toEqual({ booking_records: 3, outbox_messages: 4 });
  });

  it('writes one audit line of the server shape, naming the patient only by the hash of the phone', async () => {
    await seed(Date.now());

    const result = await cli('erase', '--phone', '+44 (7700) 900-123');

    expect(auditLines(result)).toEqual([
      { audit: true, at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/), action: 'patients erase', patient: patientHash('+447700900123'), booking_records: 3, outbox_messages: 4 },
    ]);
    expect(result.stderr).not.toMatch(/7700|Erin/);
  });

  it('erases nothing more on a second run, and says so', async () => {
    const { others } = await seed(Date.now());
    expect((await cli('erase', '--phone', '+447700900123')).code).toBe(0);

    const again = await cli('erase', '--phone', '+447700900123');

    expect(printed(again)).toEqual({ booking_records: 0, outbox_messages: 0 });
    expect(auditLines(again)).toEqual([expect.objectContaining({ action: 'patients erase', booking_records: 0, outbox_messages: 0 })]);
    expect(await recordKeys()).toEqual(others.records);
  });

  it.runIf(engine === 'sqlite')('leaves what it erased in neither the SQLite file nor its WAL', async () => {
    await seed(Date.now());
    const holds = (text: string) => sqliteBytes(outbox.testDb.file!).includes(Buffer.from(text, 'utf8'));
    expect(holds(ERIN)).toBe(true);

    expect((await cli('erase', '--phone', '+447700900123')).code).toBe(0);

    for (const text of [ERIN, ...ERIN_PHONES]) expect(holds(text), text).toBe(false);
    for (const text of [TOM.name, TOM.phone, NINA.name, NINA.phone]) expect(holds(text), text).toBe(true);
  });

  it.each<[string, string[], RegExp]>([
    ['no --phone', ['erase'], /^bff: --phone or --email is required$/],
    ['an empty phone', ['erase', '--phone', ''], /^bff: --phone or --email is required$/],
    ['a phone of four digits', ['erase', '--phone', '+(12) 3-4'], /^bff: --phone must be a phone number \(digits, spaces, \+ \( \) - \. \/, at least 5 digits\)$/],
    ['a phone with words', ['erase', '--phone', 'call +44 7700 900123'], /^bff: --phone must be a phone number /],
    ['an option of the server\'s command', ['erase', '--phone', '+44 7700 900123', '--clinic', '1'], /^bff: Unknown option '--clinic'/],
    ['an unknown command', ['export', '--phone', '+44 7700 900123'], /^bff: unknown command: patients export \(patients erase\)$/],
    ['no command', [], /^bff: usage: bff patients <command> +patients erase --phone P /],
  ])('refuses %s with one line and exit code 2, deleting nothing', async (_case, args, message) => {
    await seed(Date.now());
    const [records, messages] = [await recordKeys(), await messageIds()];

    expect(refusal(await cli(...args))).toMatch(message);

    expect(await recordKeys()).toEqual(records);
    expect(await messageIds()).toEqual(messages);
  });
});

describe('npm run bff -- patients erase, given bad input', () => {
  it('refuses it before it opens the database, so a mistyped DATABASE_URL gets no new file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'bff-patients-test-'));
    try {
      const file = join(folder, 'bff.db');

      expect(refusal(await sitesCli(['patients', 'erase', '--phone', '1234'], { DATABASE_URL: `file:${file}` }))).toMatch(/^bff: --phone must be/);

      expect(existsSync(file)).toBe(false);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('the bff process runs patients erase', { timeout: 60_000 }, () => {
  let outbox: OutboxDatabase;
  beforeAll(async () => {
    outbox = await outboxDatabase('sqlite');
  });
  afterAll(() => outbox.close());

  it('prints the counts on stdout, the audit line on stderr, with exit code 0', async () => {
    const now = Date.now();
    const message = { id: newMessageId(), channel: 'webhook' as const, event: event('default', 401, { name: ERIN, phone: ERIN_PHONES[0] }) };
    const record = { siteId: 'default', appointmentId: 401, date: '2026-11-25', time: '10:30', doctorId: null, treatmentId: null, phone: ERIN_PHONES[0], forgetAt: now + WEEK };
    await new ChangeStore(outbox.database.db).recordBooking(record, [message], now, NEW);

    const result = await sitesCliProcess(['patients', 'erase', '--phone', ERIN_PHONES[2]], { DATABASE_URL: outbox.testDb.url });

    expect(printed(result)).toEqual({ booking_records: 1, outbox_messages: 1 });
    expect(auditLines(result)).toEqual([expect.objectContaining({ audit: true, action: 'patients erase', patient: patientHash(ERIN_PHONES[2]) })]);
    expect(result.stdout + result.stderr).not.toMatch(/7700|Erin/);
  });
});

/** The address Erin gave when she booked, as she typed it twice, and what the erasure request says. */
const ERIN_EMAIL = 'erin.erasable@mail.example';
const ERIN_TYPED = ['erin.erasable@mail.example', ' Erin.Erasable@Mail.Example '] as const;
/** Others, whose rows stay: an address one character from hers, and another patient's. */
const LOOKALIKE = 'erin-erasable@mail.example';
const NINA_EMAIL = 'nina.neighbour@mail.example';

describe.each(ENGINES)('npm run bff -- patients erase --email, on %s', { timeout: 60_000 }, (engine) => {
  let outbox: OutboxDatabase;
  const outputs: CliResult[] = [];
  const cli = async (...args: string[]) => {
    const result = await sitesCli(['patients', ...args], { DATABASE_URL: outbox.testDb.url });
    outputs.push(result);
    return result;
  };
  const db = () => outbox.database.db;

  beforeAll(async () => {
    outbox = await outboxDatabase(engine);
  });
  afterAll(async () => {
    const text = outputs.map((result) => result.stdout + result.stderr).join('\n');
    expect(text.toLowerCase()).not.toContain('erin');
    await outbox.close();
  });
  beforeEach(async () => {
    for (const table of ['patient_mail', 'outbox_messages'] as const) await db().deleteFrom(table).execute();
  });

  /** One message of a booking, written as the booking path writes it (the payload names the booking, never the address). */
  async function message(siteId: string, appointmentId: number, eventType: string, state: 'pending' | 'delivered' | 'dead', now: number): Promise<string> {
    const id = newMessageId();
    await db()
      .insertInto('outbox_messages')
      .values({
        id,
        site_id: siteId,
        channel: 'email',
        event_type: eventType,
        payload: JSON.stringify({ type: eventType, site_id: siteId, appointment_id: appointmentId, reference: 'K7QM-4XRT' }),
        state,
        created_at: now,
        next_attempt_at: eventType === 'patient.reminder' ? now + 2 * 24 * HOUR : now,
        lease_owner: null,
        lease_until: null,
        finished_at: state === 'pending' ? null : now,
        last_error: state === 'dead' ? 'smtp 550' : null,
        due_at: eventType === 'patient.reminder' ? now + 2 * 24 * HOUR : null,
        appointment_id: appointmentId,
      })
      .execute();
    return id;
  }

  /**
   * Erin's address kept for two bookings on two sites (typed two ways), with their confirmations (delivered, dead)
   * and a pending reminder; the clinic's message about her booking; the lookalike's and Nina's bookings beside them.
   */
  async function seed(now: number) {
    const keep = async (siteId: string, appointmentId: number, email: string) => {
      await db()
        .insertInto('patient_mail')
        .values({ site_id: siteId, appointment_id: appointmentId, email, language: 'en', unsubscribe_token: `tok_${siteId}_${appointmentId}`, created_at: now, forget_at: now + WEEK })
        .execute();
    };
    await keep('cbs_north', 101, ERIN_TYPED[0]);
    await keep('default', 301, ERIN_TYPED[1].trim());
    await keep('cbs_north', 102, LOOKALIKE);
    await keep('cbs_south', 201, NINA_EMAIL);
    const erin = [
      await message('cbs_north', 101, 'patient.confirmation', 'delivered', now),
      await message('cbs_north', 101, 'patient.reminder', 'pending', now),
      await message('default', 301, 'patient.confirmation', 'dead', now),
    ];
    const others = [
      // The clinic's own message of her booking: the clinic's record, erased by phone, never by address.
      await message('cbs_north', 101, 'booking.created', 'delivered', now),
      // The same appointment id on another site is another booking.
      await message('cbs_south', 101, 'patient.reminder', 'pending', now),
      await message('cbs_north', 102, 'patient.reminder', 'pending', now),
      await message('cbs_south', 201, 'patient.confirmation', 'delivered', now),
    ];
    return { erin, others };
  }

  const keptAddresses = async () => (await db().selectFrom('patient_mail').select('email').execute()).map((row) => row.email).sort();
  const messageIds = async () => (await db().selectFrom('outbox_messages').select('id').execute()).map((row) => row.id).sort();

  it('deletes the address on every site, however it was typed, and every message to it, in any state; nothing else', async () => {
    const { others } = await seed(Date.now());

    const result = await cli('erase', '--email', ' ERIN.erasable@mail.EXAMPLE');

    expect(printed(result)).toEqual({ patient_mail: 2, outbox_messages: 3 });
    expect(await keptAddresses()).toEqual([LOOKALIKE, NINA_EMAIL]);
    expect(await messageIds()).toEqual([...others].sort());
  });

  it('writes one audit line naming the patient only by the hash of the address', async () => {
    await seed(Date.now());

    const result = await cli('erase', '--email', ERIN_EMAIL);

    expect(auditLines(result)).toEqual([
      { audit: true, at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/), action: 'patients erase', patient: emailHash(ERIN_EMAIL), patient_mail: 2, outbox_messages: 3 },
    ]);
    expect(emailHash(' Erin.Erasable@Mail.Example ')).toBe(emailHash(ERIN_EMAIL));
    expect(emailHash(ERIN_EMAIL)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('erases nothing more on a second run, and says so', async () => {
    await seed(Date.now());
    expect((await cli('erase', '--email', ERIN_EMAIL)).code).toBe(0);

    expect(printed(await cli('erase', '--email', ERIN_EMAIL))).toEqual({ patient_mail: 0, outbox_messages: 0 });
    expect(await keptAddresses()).toEqual([LOOKALIKE, NINA_EMAIL]);
  });

  it.runIf(engine === 'sqlite')('leaves no byte of the address, as typed either way, in the SQLite file or its WAL', async () => {
    await seed(Date.now());
    const holds = (text: string) => sqliteBytes(outbox.testDb.file!).includes(Buffer.from(text, 'utf8'));
    expect(holds(ERIN_TYPED[1].trim())).toBe(true);

    expect((await cli('erase', '--email', ERIN_EMAIL)).code).toBe(0);

    for (const text of [ERIN_EMAIL, ERIN_TYPED[1].trim(), 'tok_cbs_north_101', 'tok_default_301']) expect(holds(text), text).toBe(false);
    for (const text of [LOOKALIKE, NINA_EMAIL, 'tok_cbs_south_201']) expect(holds(text), text).toBe(true);
  });

  it.each<[string, string[], RegExp]>([
    ['a phone and an address', ['erase', '--phone', '+44 7700 900123', '--email', ERIN_EMAIL], /^bff: --phone and --email cannot go together: erase one at a time$/],
    ['an address without a domain', ['erase', '--email', 'erin.erasable'], /^bff: --email must be one e-mail address, e\.g\. patient@example\.com$/],
    ['two addresses', ['erase', '--email', `${ERIN_EMAIL}, ${NINA_EMAIL}`], /^bff: --email must be one e-mail address/],
    ['an empty address', ['erase', '--email', ''], /^bff: --email must be one e-mail address/],
  ])('refuses %s with one line and exit code 2, deleting nothing', async (_case, args, message) => {
    await seed(Date.now());
    const [addresses, messages] = [await keptAddresses(), await messageIds()];

    expect(refusal(await cli(...args))).toMatch(message);

    expect(await keptAddresses()).toEqual(addresses);
    expect(await messageIds()).toEqual(messages);
  });
});

/** Every byte of a SQLite database on disk: the file and its WAL (what a stolen disk would show). */
function sqliteBytes(file: string): Buffer {
  return Buffer.concat([file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path)));
}
