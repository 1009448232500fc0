import { existsSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { BookAppointmentResponse } from '../../../contract/index.js';
import { clinicCli } from '../support/clinic-cli.js';
import { runCliProcess } from '../support/cli-process.js';
import { TEST_ENGINE } from '../support/test-database.js';
import { authenticatedCaller, seedClinic, validBooking } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';

const folder = mkdtempSync(join(tmpdir(), 'clinic-backup-test-'));
const dbPath = join(folder, 'clinic.db');
const ctx = useTestServer({
  ...(TEST_ENGINE === 'sqlite' ? { dbPath } : {}),
  setup: async (server) => {
    const clinic = await seedClinic(server);
    return { caller: await authenticatedCaller(server, clinic) };
  },
});

const WORKERS = 8;

describe.runIf(TEST_ENGINE === 'sqlite')('clinic backup on SQLite', () => {
  it('copies, during a booking burst, every booking acknowledged before the backup started', async () => {
    const backup = join(folder, 'backup.db');
    /** Each acknowledged booking's id, and whether its answer came before the backup started. */
    const acknowledged: { id: number; beforeBackup: boolean }[] = [];
    let backupStarted = false;
    let stop = false;
    let booked = 0;
    const worker = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const res = await ctx.caller.post('/appointments/book', validBooking({ patient_name: `Burst ${n}-${i}` }));
        expect(res.status).toBe(200);
        const { appointment_id } = BookAppointmentResponse.parse(await res.json()).data;
        // Read when the answer is in hand: an answer read after the flag is set may have been committed before, which only makes the check stricter on the rest.
        acknowledged.push({ id: appointment_id, beforeBackup: !backupStarted });
        booked++;
      }
    };
    const burst = Array.from({ length: WORKERS }, (_, n) => worker(n));
    // Bookings under way before the backup starts.
    while (booked < 50) await new Promise((resolve) => setImmediate(resolve));

    backupStarted = true;
    const bookedBefore = booked;
    // A process of its own, as an operator runs it beside the server: the copy is made by another process.
    const result = await runCliProcess(ctx.server.databaseUrl, ['backup', '--to', backup]);
    const bookedDuring = booked - bookedBefore;
    stop = true;
    await Promise.all(burst);

    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ backup });
    expect(bookedDuring).toBeGreaterThan(0);
    const copy = new SQLite(backup, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const inCopy = new Set(copy.prepare<[], number>('select appointment_id from appointments').pluck().all());
      const before = acknowledged.filter((booking) => booking.beforeBackup).map((booking) => booking.id);
      expect(before.length).toBeGreaterThanOrEqual(50);
      expect(before.filter((id) => !inCopy.has(id))).toEqual([]);
    } finally {
      copy.close();
    }
  });

  it('refuses a DATABASE_URL naming no SQLite file, creating none', async () => {
    const missing = join(folder, 'mistyped', 'clinic.db');

    const result = await clinicCli(`file:${missing}`, ['backup', '--to', join(folder, 'from-nothing.db')]);

    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining(`no SQLite database at ${missing}`)]);
    expect(existsSync(missing)).toBe(false);
  });

  it('refuses to overwrite a file that exists, with one line and exit code 2', async () => {
    const existing = join(folder, 'existing.db');
    writeFileSync(existing, 'precious');

    const result = await clinicCli(ctx.server.databaseUrl, ['backup', '--to', existing]);

    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining('exists')]);
  });

  it('refuses a dangling symbolic link, with one line and exit code 2, creating nothing at its target', async () => {
    const target = join(folder, 'elsewhere', 'planted.db');
    const link = join(folder, 'dangling-link.db');
    symlinkSync(target, link);

    const result = await clinicCli(ctx.server.databaseUrl, ['backup', '--to', link]);

    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(`clinic: ${link} is a symbolic link: back up to a new file, not through a link\n`);
    expect(existsSync(target)).toBe(false);
    expect(readlinkSync(link)).toBe(target);
  });

  it('refuses a symbolic link to a file, leaving the file as it was', async () => {
    const target = join(folder, 'linked.db');
    writeFileSync(target, 'precious');
    const link = join(folder, 'live-link.db');
    symlinkSync(target, link);

    const result = await clinicCli(ctx.server.databaseUrl, ['backup', '--to', link]);

    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(`clinic: ${link} is a symbolic link: back up to a new file, not through a link\n`);
    expect(readFileSync(target, 'utf8')).toBe('precious');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });
});

describe.runIf(TEST_ENGINE === 'postgres')('clinic backup on PostgreSQL', () => {
  it('says to use pg_dump, with one line and exit code 2, and writes nothing', async () => {
    const target = join(folder, 'pg-backup.db');

    const result = await clinicCli(ctx.server.databaseUrl, ['backup', '--to', target]);

    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining('pg_dump')]);
    expect(existsSync(target)).toBe(false);
  });
});
