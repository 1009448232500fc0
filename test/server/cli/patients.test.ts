import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BookAppointmentResponse, DentistListResponse } from '../../../contract/index.js';
import { patientHash } from '../../../platform/patient-hash.js';
import type { AppointmentRecord } from '../../../server/appointments/appointment.store.js';
import { clinicFixture } from '../support/clinic-fixture.js';
import { clinicCli, type CliResult } from '../support/clinic-cli.js';
import { insertAppointment, sqliteFileHolds } from '../support/patient-files.js';
import { TEST_ENGINE } from '../support/test-database.js';
import { authenticatedCaller, seedClinic, validBooking } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { expectError } from '../../support/expect-error.js';

const dbPath = join(mkdtempSync(join(tmpdir(), 'clinic-patients-test-')), 'clinic.db');
const ctx = useTestServer({
  ...(TEST_ENGINE === 'sqlite' ? { dbPath } : {}),
  setup: async (server) => ({ clinic: await seedClinic(server), other: await seedClinic(server, clinicFixture('Other Dental')) }),
});

const clinic = (args: string[]) => clinicCli(ctx.server.databaseUrl, args);

/** The one audit line a patients command wrote on stderr, parsed. */
function auditLine(result: CliResult): Record<string, unknown> {
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

/** A refusal: exit code 2, nothing on stdout, one line on stderr; returns it. */
function refusal(result: CliResult): string {
  expect(result).toMatchObject({ code: 2, stdout: '' });
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

/**
 * Margot's three appointments in a clinic of the test's own, one of someone else there and one of her phone at
 * another clinic; her name, address and note carry `tag`, so a test finds in the files only what it wrote.
 */
async function seedMargot(tag: string) {
  const own = await seedClinic(ctx.server);
  const other = await seedClinic(ctx.server, clinicFixture('Other Dental'));
  const margot = { patient_name: `Margot Exportable ${tag}`, address: `3 Quince Row ${tag}`, note: `prefers mornings ${tag}` };
  const ids = [
    await insertAppointment(ctx.server, own.careId, { ...margot, patient_phone: '+44 7700 900777', appointment_date: '2026-01-05' }),
    await insertAppointment(ctx.server, own.careId, { ...margot, patient_phone: '+447700900777', appointment_date: '2026-03-05' }),
    await insertAppointment(ctx.server, own.careId, { ...margot, patient_phone: '+44 (7700) 900-777', appointment_date: '2026-05-05' }),
    // Not hers: another phone, and her phone in another clinic.
    await insertAppointment(ctx.server, own.careId, { patient_name: 'Someone Else', patient_phone: '+44 7700 900778', appointment_date: '2026-05-05' }),
    await insertAppointment(ctx.server, other.careId, { patient_name: 'Margot Otherclinic', patient_phone: '+44 7700 900777', appointment_date: '2026-05-05' }),
  ];
  const erase = () => clinic(['patients', 'erase', '--clinic', String(own.careId), '--phone', '+447700900777']);
  return { own, margot, ids, erase };
}

describe('clinic patients export and erase', () => {
  it('export prints every appointment of that phone in that clinic, whatever its spacing, and an audit line without the phone', async () => {
    const { own, margot, ids } = await seedMargot('export');

    const result = await clinic(['patients', 'export', '--clinic', String(own.careId), '--phone', '+44-7700-900 777']);

    expect(result.code, result.stderr).toBe(0);
    const exported = JSON.parse(result.stdout) as AppointmentRecord[];
    expect(exported.map((appointment) => appointment.appointment_id)).toEqual(ids.slice(0, 3));
    expect(exported[0]).toMatchObject({ ...margot, patient_phone: '+44 7700 900777', appointment_date: '2026-01-05', care_id: own.careId });
    const audit = auditLine(result);
    expect(audit).toMatchObject({ audit: true, action: 'patients export', care_id: own.careId, appointments: 3, patient: patientHash('+447700900777') });
    expect(result.stderr).not.toMatch(/7700|900777|Margot/);
  });

  it('erase anonymises them now, prints how many, and writes an audit line without the phone', async () => {
    const { own, ids, erase } = await seedMargot('erase');

    const result = await erase();

    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ anonymised: 3 });
    expect(auditLine(result)).toMatchObject({ action: 'patients erase', care_id: own.careId, anonymised: 3, patient: patientHash('+44 7700 900777') });
    expect(result.stderr).not.toMatch(/7700|Margot/);
    const rows = await ctx.server.db.selectFrom('appointments').selectAll().where('appointment_id', 'in', ids).orderBy('appointment_id').execute();
    expect(rows.map((row) => [row.patient_name, row.patient_phone, row.address, row.note])).toEqual([
      ['', '', null, null],
      ['', '', null, null],
      ['', '', null, null],
      ['Someone Else', '+44 7700 900778', null, null],
      ['Margot Otherclinic', '+44 7700 900777', null, null],
    ]);
  });

  it('finds nothing of hers afterwards: export prints []', async () => {
    const { own, erase } = await seedMargot('afterwards');
    expect((await erase()).code).toBe(0);

    const result = await clinic(['patients', 'export', '--clinic', String(own.careId), '--phone', '+44 7700 900777']);

    expect(JSON.parse(result.stdout)).toEqual([]);
    expect(auditLine(result)).toMatchObject({ appointments: 0 });
  });

  it.runIf(TEST_ENGINE === 'sqlite')('leaves what it erased in neither the SQLite file nor its WAL', async () => {
    const { margot, erase } = await seedMargot('files');
    expect(sqliteFileHolds(dbPath, margot.patient_name)).toBe(true);

    expect((await erase()).code).toBe(0);

    for (const value of Object.values(margot)) expect(sqliteFileHolds(dbPath, value), value).toBe(false);
    expect(sqliteFileHolds(dbPath, 'Margot Otherclinic')).toBe(true);
  });

  it.each([
    ['a phone without digits', ['--phone', 'call me'], '--phone must be a phone number'],
    ['no phone', [], '--phone is required'],
    ['an unknown clinic', ['--phone', '+44 7700 900777', '--clinic', '999999'], 'no clinic 999999'],
  ])('refuses %s with one clear line and exit code 2', async (_case, flags, message) => {
    const args = ['patients', 'erase', '--clinic', String(ctx.clinic.careId), ...flags];

    expect(refusal(await clinic(args))).toContain(message);
  });
});

describe('clinic patients erase, then a booking of hers sent again with its Idempotency-Key', () => {
  const ERIN = { patient_name: 'Erin Erasable', patient_phone: '+44 7700 900555' };

  it("is no longer replayed: a new request, which the rules decide; another patient's key still replays", async () => {
    const caller = await authenticatedCaller(ctx.server, ctx.clinic);
    const book = (body: Record<string, unknown>, key: string) => caller.post('/appointments/book', body, { 'idempotency-key': key });
    const [dentist] = DentistListResponse.parse(await (await caller.get('/dentists')).json()).data;
    const named = validBooking({ ...ERIN, appointment_time: '10:00', doctor_id: dentist!.doctor_id });
    const unnamed = validBooking({ ...ERIN, appointment_time: '11:00' });
    const others = validBooking({ patient_name: 'Olga Other', patient_phone: '+44 7700 900556', appointment_time: '12:00' });
    const booked = [];
    for (const [body, key] of [[named, 'erin-named'], [unnamed, 'erin-unnamed'], [others, 'olga']] as const) {
      const res = await book(body, key);
      expect(res.status).toBe(200);
      booked.push(BookAppointmentResponse.parse(await res.json()).data.appointment_id);
    }

    // At the server's time, so the other answers are within their 24 hours when erase forgets the older ones.
    const erased = await clinicCli(ctx.server.databaseUrl, ['patients', 'erase', '--clinic', String(ctx.clinic.careId), '--phone', ERIN.patient_phone], {}, ctx.server.clock);
    expect(erased.code, erased.stderr).toBe(0);

    // The erased appointment still holds its dentist at 10:00 (anonymised, not cancelled): refused as any new booking.
    const namedAgain = await book(named, 'erin-named');
    await expectError(namedAgain, 409, 'slot_unavailable');
    expect(namedAgain.headers.get('idempotent-replayed')).toBeNull();
    const unnamedAgain = await book(unnamed, 'erin-unnamed');
    expect(unnamedAgain.status).toBe(200);
    expect(unnamedAgain.headers.get('idempotent-replayed')).toBeNull();
    expect(BookAppointmentResponse.parse(await unnamedAgain.json()).data.appointment_id).not.toBe(booked[1]);
    const othersAgain = await book(others, 'olga');
    expect(othersAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(BookAppointmentResponse.parse(await othersAgain.json()).data.appointment_id).toBe(booked[2]);
  });
});
