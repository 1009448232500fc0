import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppointmentStatusResponse, DAY_NAMES, DentistListResponse, OrganizationResponse, TreatmentListResponse, WebsiteResponse } from '../../../contract/index.js';
import { ClinicFile } from '../../../server/clinics/clinic-file.js';
import { ClinicStore } from '../../../server/clinics/clinic.store.js';
import { demoClinic } from '../../../server/demo/demo-clinic.js';
import { clinicFixture } from '../support/clinic-fixture.js';
import { clinicCli, type CliResult } from '../support/clinic-cli.js';
import { runCliProcess } from '../support/cli-process.js';
import { AUTH_FAILED, authenticatedCaller, seedClinic, validBooking } from '../support/test-server.js';
import { TEST_ENGINE } from '../support/test-database.js';
import { useTestServer } from '../support/use-test-server.js';
import type { ApiKeyPair } from '../../../server/auth/auth.service.js';
import type { ApiKeySummary } from '../../../server/auth/key.store.js';

// One database for this file (a SQLite file, or a PostgreSQL database: the engine of the run), shared by
// the CLI and the in-process server; on SQLite it lives in the folder the clinic files are
// written to, which goes when the server does.
const tempDir = mkdtempSync(join(tmpdir(), 'clinic-cli-test-'));
const dbPath = join(tempDir, 'clinic.db');
const ctx = useTestServer(TEST_ENGINE === 'sqlite' ? { dbPath } : {});
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

/**
 * Runs the CLI's command in this process (server/cli/run-cli.ts): the same code and database file as
 * `npm run clinic`, without a tsx process per call; PUBLIC_URL is the test's to set. The real process is
 * run by the last tests, which prove main.ts's exit code and output.
 */
const cli = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
  clinicCli(ctx.server.databaseUrl, args, { PUBLIC_URL: undefined, ...env });

/** The JSON a successful command printed; fails the test with the CLI's stderr otherwise. */
function printed<T>(result: CliResult): T {
  expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(result.stdout) as T;
}

/** A failed command: non-zero exit, nothing on stdout, one line on stderr; returns that line. */
function failure(result: CliResult): string {
  expect(result.code).not.toBe(0);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0] ?? '';
}

/** A clinic created in-process, without any key, so a test arranges only what it checks. */
const createClinic = async (): Promise<number> =>
  new ClinicStore(ctx.server.db).create(ClinicFile.parse(clinicFixture()), ctx.server.clock.now());

const exchange = (appKey: string, secret: string) =>
  fetch(`${ctx.server.api}/granttoken`, { method: 'POST', headers: { 'x-app-key': appKey, 'x-app-secret-key': secret } });

function writeClinicFile(name: string, content: unknown): string {
  const path = join(tempDir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('clinic create', () => {
  it('prints exactly {"care_id": N} and a new care_id on each call', async () => {
    const file = writeClinicFile('clinic.json', clinicFixture());

    const first = printed<{ care_id: number }>(await cli(['clinic', 'create', '--file', file]));
    const second = printed<{ care_id: number }>(await cli(['clinic', 'create', '--file', file]));

    expect(first).toEqual({ care_id: expect.any(Number) });
    expect(second).toEqual({ care_id: expect.any(Number) });
    expect(second.care_id).not.toBe(first.care_id);
  });

  it.each([
    ['an unknown time zone', 'timezone', { ...clinicFixture(), timezone: 'Mars/Olympus' }],
    [
      'a treatment base_fee that is not a decimal',
      'base_fee',
      (() => {
        const file = clinicFixture();
        file.treatments[0] = { ...file.treatments[0]!, base_fee: 'abc' };
        return file;
      })(),
    ],
  ])('exits non-zero with one line on stderr naming the field for %s', async (_name, field, content) => {
    const file = writeClinicFile(`invalid-${field}.json`, content);

    const line = failure(await cli(['clinic', 'create', '--file', file]));

    expect(line).toContain(field);
  });

  it('exits non-zero with a message naming a path it cannot read', async () => {
    const missing = join(tempDir, 'no-such-clinic.json');

    const line = failure(await cli(['clinic', 'create', '--file', missing]));

    expect(line).toContain('cannot read');
    expect(line).toContain(missing);
  });
});

describe('clinic rules and clinic set-rules', () => {
  interface Rules {
    care_id: number;
    booking_rules: { min_notice_minutes: number; horizon_days: number; default_duration_minutes: number };
  }
  const rulesOf = async (careId: number) => printed<Rules>(await cli(['clinic', 'rules', '--clinic', String(careId)]));

  it('prints the defaults for a clinic whose file set none', async () => {
    const careId = await createClinic();

    expect(await rulesOf(careId)).toEqual({ care_id: careId, booking_rules: { min_notice_minutes: 120, horizon_days: 365, default_duration_minutes: 30 } });
  });

  it('prints the rules a clinic file set, each one left out at its default', async () => {
    const file = writeClinicFile('clinic-with-rules.json', { ...clinicFixture(), booking_rules: { min_notice_minutes: 1440, horizon_days: 60 } });

    const { care_id } = printed<{ care_id: number }>(await cli(['clinic', 'create', '--file', file]));

    expect((await rulesOf(care_id)).booking_rules).toEqual({ min_notice_minutes: 1440, horizon_days: 60, default_duration_minutes: 30 });
  });

  it('clinic set-rules changes the rules given, keeps the others, prints them all, and the server books by them at once', async () => {
    const clinic = await seedClinic(ctx.server);
    const caller = await authenticatedCaller(ctx.server, clinic);
    const doctor = (await ctx.server.db.selectFrom('dentists').select('doctor_id').where('care_id', '=', clinic.careId).executeTakeFirstOrThrow()).doctor_id;
    const soon = validBooking({ appointment_date: '2026-11-23', appointment_time: '09:10', doctor_id: doctor });
    expect((await caller.post('/appointments/book', soon)).status).toBe(400); // inside the default 120 minutes' notice

    const result = await cli(['clinic', 'set-rules', '--clinic', String(clinic.careId), '--min-notice-minutes', '0', '--default-duration-minutes', '45']);

    const rules = { min_notice_minutes: 0, horizon_days: 365, default_duration_minutes: 45 };
    expect(printed<Rules>(result)).toEqual({ care_id: clinic.careId, booking_rules: rules });
    expect((await rulesOf(clinic.careId)).booking_rules).toEqual(rules);
    expect((await caller.post('/appointments/book', soon)).status).toBe(200);
    const inside = await caller.post('/appointments/book', { ...soon, appointment_time: '09:50' });
    expect(inside.status).toBe(409);
    expect(((await inside.json()) as { message: string }).message).toContain('from 09:10 to 09:55');
  });

  it.each([
    ['a default length over 480 minutes', ['--default-duration-minutes', '481'], '--default-duration-minutes must be a whole number of minutes from 5 to 480'],
    ['a default length under 5 minutes', ['--default-duration-minutes', '4'], '--default-duration-minutes must be a whole number of minutes from 5 to 480'],
    ['a horizon over two years', ['--horizon-days', '731'], '--horizon-days must be a whole number of days from 0 to 730'],
    ['a notice over 30 days', ['--min-notice-minutes', '43201'], '--min-notice-minutes must be a whole number of minutes from 0 to 43200'],
    ['a notice that is not a number', ['--min-notice-minutes', '2h'], '--min-notice-minutes must be a whole number'],
    ['a negative horizon', ['--horizon-days=-1'], '--horizon-days must be a whole number'],
    ['a negative horizon written as the next argument', ['--horizon-days', '-1'], "Option '--horizon-days' argument is ambiguous."],
    ['a notice a whole day past the horizon', ['--horizon-days', '0', '--min-notice-minutes', '1440'], '--min-notice-minutes must be less than the horizon_days (0) plus one day'],
    ['no rule at all', [], 'clinic set-rules needs at least one of --min-notice-minutes, --horizon-days, --default-duration-minutes'],
  ])('clinic set-rules refuses %s with one line and exit code 2, and changes nothing', async (_case, flags, message) => {
    const careId = await createClinic();

    const result = await cli(['clinic', 'set-rules', '--clinic', String(careId), ...flags]);

    expect(failure(result)).toContain(message);
    expect(result.code).toBe(2);
    expect((await rulesOf(careId)).booking_rules).toEqual({ min_notice_minutes: 120, horizon_days: 365, default_duration_minutes: 30 });
  });

  it('clinic create refuses a clinic file whose default length is out of bounds, naming the field', async () => {
    const file = writeClinicFile('clinic-long-default.json', { ...clinicFixture(), booking_rules: { default_duration_minutes: 600 } });

    const result = await cli(['clinic', 'create', '--file', file]);

    expect(failure(result)).toContain('booking_rules.default_duration_minutes must be a whole number of minutes from 5 to 480');
    expect(result.code).toBe(2);
  });

  it('clinic rules for a clinic that does not exist exits 2 naming it', async () => {
    const result = await cli(['clinic', 'rules', '--clinic', '987654']);

    expect(failure(result)).toContain('no clinic 987654');
    expect(result.code).toBe(2);
  });
});

describe('keys', () => {
  let careId: number;
  let created: CliResult;

  beforeAll(async () => {
    careId = await createClinic();
    created = await cli(['keys', 'create', '--clinic', String(careId)]);
  });

  const keyPair = () => printed<ApiKeyPair>(created);

  it('keys create prints exactly {app_key, app_secret_key}', () => {
    const pair = keyPair();

    expect(Object.keys(pair).sort()).toEqual(['app_key', 'app_secret_key']);
    expect(pair.app_key).toEqual(expect.any(String));
    expect(pair.app_secret_key).toEqual(expect.any(String));
    expect(pair.app_key.length).toBeGreaterThan(0);
    expect(pair.app_secret_key.length).toBeGreaterThanOrEqual(32);
  });

  it('keys list shows app_key, created_at and revoked_at, never the secret or its hash', async () => {
    const { app_key, app_secret_key } = keyPair();

    const result = await cli(['keys', 'list', '--clinic', String(careId)]);

    const keys = printed<ApiKeySummary[]>(result);
    expect(keys).toEqual([{ app_key, created_at: expect.any(String), revoked_at: null }]);
    expect(new Date(keys[0]!.created_at).toISOString()).toBe(keys[0]!.created_at);
    expect(result.stdout).not.toContain(app_secret_key);
    expect(result.stdout).not.toMatch(/scrypt|secret/i);
  });

  it.runIf(TEST_ENGINE === 'sqlite')('never writes the secret to the database file or its WAL in plain text', () => {
    const { app_key, app_secret_key } = keyPair();
    const files = [dbPath, `${dbPath}-wal`].filter((path) => existsSync(path));

    const bytes = files.map((path) => readFileSync(path).toString('latin1'));

    expect(files).toContain(dbPath);
    expect(bytes.some((text) => text.includes(app_key))).toBe(true); // the files do hold the key row
    for (const text of bytes) expect(text).not.toContain(app_secret_key);
  });

  it.runIf(TEST_ENGINE === 'postgres')('never stores the secret in plain text in any row of any table', async () => {
    const { app_key, app_secret_key } = keyPair();
    const tables = await ctx.server.db.introspection.getTables();

    const rows = await Promise.all(
      tables.map(async (table) => JSON.stringify((await sql`select * from ${sql.table(table.name)}`.execute(ctx.server.db)).rows)),
    );

    expect(rows.join('\n')).toContain(app_key); // the tables do hold the key row
    expect(rows.join('\n')).not.toContain(app_secret_key);
  });

  it('gives a key pair the server accepts until keys revoke, after which the exchange answers 401', async () => {
    // A clinic and key pair of its own: the other tests read the shared pair unrevoked.
    const { app_key, app_secret_key } = printed<ApiKeyPair>(await cli(['keys', 'create', '--clinic', String(await createClinic())]));
    expect((await exchange(app_key, app_secret_key)).status).toBe(200);

    expect(printed<unknown>(await cli(['keys', 'revoke', '--key', app_key]))).toEqual({ revoked: app_key });

    const res = await exchange(app_key, app_secret_key);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(AUTH_FAILED);
  });

  it('keys revoke of an unknown key exits non-zero naming the key', async () => {
    const line = failure(await cli(['keys', 'revoke', '--key', 'ck_no_such_key']));

    expect(line).toContain('ck_no_such_key');
  });

  it('keys create for a clinic that does not exist exits non-zero naming the clinic', async () => {
    const line = failure(await cli(['keys', 'create', '--clinic', '999']));

    expect(line).toContain('999');
  });

  it('keys create with a non-numeric --clinic exits non-zero naming the option', async () => {
    const line = failure(await cli(['keys', 'create', '--clinic', 'abc']));

    expect(line).toContain('--clinic');
  });
});

describe('appointments', () => {
  let careId: number;
  let caller: Awaited<ReturnType<typeof authenticatedCaller>>;

  beforeAll(async () => {
    const clinic = await seedClinic(ctx.server);
    careId = clinic.careId;
    caller = await authenticatedCaller(ctx.server, clinic);
  });

  async function book(time: string, by = caller): Promise<number> {
    const res = await by.post('/appointments/book', validBooking({ appointment_time: time }));
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { appointment_id: number } }).data.appointment_id;
  }

  async function bookBody(body: Record<string, unknown>): Promise<number> {
    const res = await caller.post('/appointments/book', body);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { appointment_id: number } }).data.appointment_id;
  }

  const statusOf = async (id: number) =>
    AppointmentStatusResponse.parse(await (await caller.get(`/appointments/status/${id}`)).json()).data.status;

  it('appointments list prints [] for a clinic without bookings', async () => {
    const empty = await createClinic();

    expect(printed<unknown>(await cli(['appointments', 'list', '--clinic', String(empty)]))).toEqual([]);
  });

  it('appointments list shows a booking made over HTTP with its fields', async () => {
    // A clinic of its own, so the list holds this booking alone whatever the other tests booked.
    const clinic = await seedClinic(ctx.server);
    const id = await book('10:00', await authenticatedCaller(ctx.server, clinic));

    const appointments = printed<unknown[]>(await cli(['appointments', 'list', '--clinic', String(clinic.careId)]));

    expect(appointments).toEqual([
      expect.objectContaining({
        appointment_id: id,
        care_id: clinic.careId,
        patient_name: 'Jane Doe',
        patient_phone: '+44 7700 900123',
        appointment_date: '2026-11-24',
        appointment_time: '10:00',
        end_time: '10:30',
        address: null,
        doctor_id: null,
        treatment_id: null,
        note: null,
        status: 'Scheduled',
        created_at: expect.any(String),
      }),
    ]);
  });

  it('appointments set-status prints {appointment_id, status} and the API then shows the new status', async () => {
    const id = await book('11:00');

    const result = await cli(['appointments', 'set-status', '--id', String(id), '--status', 'Completed']);

    expect(printed<unknown>(result)).toEqual({ appointment_id: id, status: 'Completed' });
    expect(await statusOf(id)).toBe('Completed');
  });

  it('appointments set-status with a status outside Scheduled|Cancelled|Completed exits non-zero and changes nothing', async () => {
    const id = await book('12:00');

    const line = failure(await cli(['appointments', 'set-status', '--id', String(id), '--status', 'Done']));

    expect(line).toContain('--status');
    expect(await statusOf(id)).toBe('Scheduled');
  });

  it('appointments set-status refuses to put an appointment back to Scheduled once its dentist\'s time is taken, and changes nothing', async () => {
    const doctor = (await ctx.server.db.selectFrom('dentists').select('doctor_id').where('care_id', '=', careId).executeTakeFirstOrThrow()).doctor_id;
    const at = (time: string) => validBooking({ doctor_id: doctor, appointment_date: '2026-11-25', appointment_time: time });
    const first = await bookBody(at('14:00'));
    printed(await cli(['appointments', 'set-status', '--id', String(first), '--status', 'Cancelled']));
    const second = await bookBody(at('14:15'));

    const result = await cli(['appointments', 'set-status', '--id', String(first), '--status', 'Scheduled']);

    expect(failure(result)).toBe(
      `clinic: appointment ${first} cannot be Scheduled again: its dentist has appointment ${second} from 14:15 to 14:45 on 2026-11-25`,
    );
    expect(result.code).toBe(2);
    expect(await statusOf(first)).toBe('Cancelled');
  });

  it('appointments set-status puts a Cancelled appointment back to Scheduled while its time is still free', async () => {
    const doctor = (await ctx.server.db.selectFrom('dentists').select('doctor_id').where('care_id', '=', careId).executeTakeFirstOrThrow()).doctor_id;
    const id = await bookBody(validBooking({ doctor_id: doctor, appointment_date: '2026-11-26', appointment_time: '14:00' }));
    printed(await cli(['appointments', 'set-status', '--id', String(id), '--status', 'Cancelled']));

    printed(await cli(['appointments', 'set-status', '--id', String(id), '--status', 'Scheduled']));

    expect(await statusOf(id)).toBe('Scheduled');
  });

  it('appointments set-status of an unknown appointment exits non-zero naming it', async () => {
    const line = failure(await cli(['appointments', 'set-status', '--id', '987654', '--status', 'Cancelled']));

    expect(line).toContain('987654');
  });
});

describe('seed-demo', () => {
  let seeded: CliResult;
  let demo: { care_id: number; app_key: string; app_secret_key: string };
  let caller: Awaited<ReturnType<typeof authenticatedCaller>>;

  beforeAll(async () => {
    seeded = await cli(['seed-demo'], { PUBLIC_URL: ctx.server.baseUrl });
    demo = JSON.parse(seeded.stdout || 'null') as typeof demo;
    if (seeded.code === 0) {
      caller = await authenticatedCaller(ctx.server, { careId: demo.care_id, appKey: demo.app_key, secret: demo.app_secret_key });
    }
  });

  const get = async (path: string): Promise<unknown> => {
    const res = await caller.get(path);
    expect(res.status).toBe(200);
    return res.json();
  };
  const website = async () => WebsiteResponse.parse(await get('/website')).site;
  const treatments = async () => TreatmentListResponse.parse(await get('/treatments')).data;
  const dentists = async () => DentistListResponse.parse(await get('/dentists')).data;

  it('prints exactly {care_id, app_key, app_secret_key}', () => {
    const printedDemo = printed<Record<string, unknown>>(seeded);

    expect(printedDemo).toEqual({ care_id: expect.any(Number), app_key: expect.any(String), app_secret_key: expect.any(String) });
  });

  it('run again on the same database, says the demo clinic exists, prints its care_id and creates no second clinic', async () => {
    const clinicsBefore = await ctx.server.db.selectFrom('clinics').select('care_id').execute();

    const again = await cli(['seed-demo'], { PUBLIC_URL: ctx.server.baseUrl });

    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`already in this database (care_id ${demo.care_id})`);
    const printedAgain = JSON.parse(again.stdout) as Record<string, unknown>;
    expect(printedAgain).toEqual({ care_id: demo.care_id, existing: true, app_key: expect.any(String), app_secret_key: expect.any(String) });
    expect(await ctx.server.db.selectFrom('clinics').select('care_id').execute()).toEqual(clinicsBefore);
    const fresh = await authenticatedCaller(ctx.server, { careId: demo.care_id, appKey: String(printedAgain.app_key), secret: String(printedAgain.app_secret_key) });
    expect((await fresh.get('/organization')).status).toBe(200);
  });

  it('with --second, creates the other demo clinic beside the first, with its own name and key pair', async () => {
    const second = await cli(['seed-demo', '--second'], { PUBLIC_URL: ctx.server.baseUrl });

    expect(second.code).toBe(0);
    const printedSecond = printed<{ care_id: number; app_key: string; app_secret_key: string }>(second);
    expect(printedSecond.care_id).not.toBe(demo.care_id);
    const other = await authenticatedCaller(ctx.server, { careId: printedSecond.care_id, appKey: printedSecond.app_key, secret: printedSecond.app_secret_key });
    const { site } = WebsiteResponse.parse(await (await other.get('/website')).json());
    expect(site.clinic_name).toBe('Harbour Family Dental');
    expect((await website()).clinic_name).toBe('Bright Smile Dental');
  });

  it('creates a website in which every string is non-empty', async () => {
    const site = await website();
    const empty: string[] = [];
    const walk = (value: unknown, path: string): void => {
      if (typeof value === 'string' && value.trim() === '') empty.push(path);
      else if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${path}[${i}]`));
      else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) walk(item, `${path}.${key}`);
    };

    walk(site, 'site');

    expect(empty).toEqual([]);
  });

  it('creates opening hours for all seven days with at least one closed day', async () => {
    const { opening_hours } = await website();

    expect(Object.keys(opening_hours).sort()).toEqual([...DAY_NAMES].sort());
    expect(Object.values(opening_hours).some((day) => day.is_closed)).toBe(true);
    expect(Object.values(opening_hours).some((day) => !day.is_closed)).toBe(true);
  });

  it('creates several team members, testimonials, FAQs and services', async () => {
    const site = await website();

    expect(site.team_members.length).toBeGreaterThanOrEqual(3);
    expect(site.testimonials.length).toBeGreaterThanOrEqual(3);
    expect(site.faqs.length).toBeGreaterThanOrEqual(3);
    expect(site.services.length).toBeGreaterThanOrEqual(3);
  });

  it('creates several active treatments and keeps the inactive one out of GET /treatments', async () => {
    const all = demoClinic(ctx.server.baseUrl).treatments;
    const inactive = all.filter((t) => t.active === false).map((t) => t.treatment_name);
    expect(inactive.length).toBeGreaterThan(0);

    const names = (await treatments()).map((t) => t.treatment_name);

    expect(names.length).toBeGreaterThanOrEqual(3);
    expect(names).toEqual(all.filter((t) => t.active !== false).map((t) => t.treatment_name));
    for (const name of inactive) expect(names).not.toContain(name);
  });

  it('creates several dentists', async () => {
    expect((await dentists()).length).toBeGreaterThanOrEqual(3);
  });

  it('links every image to <PUBLIC_URL>/assets/demo/, and each one is served as SVG', async () => {
    const site = await website();
    const organization = OrganizationResponse.parse(await get('/organization')).data;
    expect(organization.logo).not.toBeNull();
    const images = [
      organization.logo ?? '',
      site.hero_bg_image,
      site.about_image,
      ...site.team_members.map((m) => m.photo),
      ...site.testimonials.map((t) => t.photo),
      ...site.services.map((s) => s.image),
      ...(await treatments()).map((t) => t.image_url),
      ...(await dentists()).map((d) => d.signature_image_url),
    ];

    for (const url of images) expect(url).toMatch(new RegExp(`^${ctx.server.baseUrl.replace(/\./g, '\\.')}/assets/demo/[\\w-]+\\.svg$`));
    for (const url of new Set(images)) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type'), url).toMatch(/^image\/svg\+xml/);
      expect(await res.text(), url).toMatch(/^<svg/);
    }
  });
});

describe('the clinic process (main.ts wires runCli to stdout, stderr and the exit code)', () => {
  it('an unknown command exits 2 and prints the usage on stderr', async () => {
    const result = await runCliProcess(ctx.server.databaseUrl, ['frobnicate']);

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('frobnicate');
    expect(result.stderr).toContain('usage: clinic');
    for (const command of ['clinic create', 'clinic rules', 'clinic set-rules', 'keys create', 'keys list', 'keys revoke', 'appointments list', 'appointments set-status', 'seed-demo']) {
      expect(result.stderr).toContain(command);
    }
  });

  it('a command that succeeds exits 0 with its JSON on stdout and nothing on stderr', async () => {
    const careId = await createClinic();

    const result = await runCliProcess(ctx.server.databaseUrl, ['keys', 'list', '--clinic', String(careId)]);

    expect(result).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });
});

describe('an unknown command', () => {
  it('creates no database file', async () => {
    const untouched = join(tmpdir(), `clinic-cli-never-${process.pid}-${Date.now()}.db`);
    const result = await cli(['frobnicate'], { DATABASE_URL: `file:${untouched}` });

    expect(result.code).toBe(2);
    expect(existsSync(untouched)).toBe(false);
  });
});
