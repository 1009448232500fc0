import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChangeStore } from '../../../bff/changes/change-store.js';
import type { NotificationEvent } from '../../../bff/notifications/notification-event.js';
import { newMessageId } from '../../../bff/outbox/enqueue.js';
import type { OutboxChannel } from '../../../bff/outbox/outbox-message.js';
import { patientHash } from '../../../platform/patient-hash.js';
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
    ['no --phone', ['erase'], /^bff: --phone is required$/],
    ['an empty phone', ['erase', '--phone', ''], /^bff: --phone is required$/],
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

/** Every byte of a SQLite database on disk: the file and its WAL (what a stolen disk would show). */
function sqliteBytes(file: string): Buffer {
  return Buffer.concat([file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path)));
}
