import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/connection.js';
import { ClinicStore } from '../../../server/clinics/clinic.store.js';
import { ClinicFile } from '../../../server/clinics/clinic-file.js';
import { AuthService } from '../../../server/auth/auth.service.js';
import { KeyStore } from '../../../server/auth/key.store.js';
import { TokenStore } from '../../../server/auth/token.store.js';
import { systemClock } from '../../../platform/clock.js';
import { BookAppointmentResponse } from '../../../contract/index.js';
import { clinicFixture } from '../support/clinic-fixture.js';
import { nextWeekdayInLondon } from '../support/future-slot.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import {
  authenticatedCaller,
  removeDb,
  seedClinic,
  startTestServer,
  tempDbPath,
  validBooking,
} from '../support/test-server.js';

describe('persistence', () => {
  it('keeps clinics, keys and appointments across a restart on the same file', async () => {
    const first = await startTestServer();
    const clinic = await seedClinic(first);
    const caller = await authenticatedCaller(first, clinic);
    const booked = BookAppointmentResponse.parse(await (await caller.post('/appointments/book', validBooking())).json());
    await first.close();

    const second = await startTestServer({ dbPath: first.dbPath });
    const res = await fetch(`${second.api}/appointments/status/${booked.data.appointment_id}`, { headers: caller.headers });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toMatchObject({ status: 'Scheduled', name: 'Jane Doe' });
    await second.close();
    removeDb(first.dbPath);
  });
});

describe('the server process', () => {
  const dbPath = tempDbPath();
  const date = nextWeekdayInLondon();
  let keys: { app_key: string; app_secret_key: string };

  beforeAll(async () => {
    const db = await openDatabase(`file:${dbPath}`);
    const careId = await new ClinicStore(db).create(ClinicFile.parse(clinicFixture()), new Date());
    keys = await new AuthService(new KeyStore(db), new TokenStore(db), systemClock).createKeyPair(careId);
    await db.destroy();
  });
  afterAll(() => removeDb(dbPath));

  async function headersFor(server: ServerProcess): Promise<Record<string, string>> {
    const res = await fetch(`${server.api}/granttoken`, {
      method: 'POST',
      headers: { 'x-app-key': keys.app_key, 'x-app-secret-key': keys.app_secret_key },
    });
    const { access_token } = (await res.json()) as { access_token: string };
    return { 'x-app-key': keys.app_key, authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
  }

  async function appointmentsOnDisk(): Promise<{ appointment_id: number; patient_name: string }[]> {
    const db = await openDatabase(`file:${dbPath}`);
    const rows = await db.selectFrom('appointments').select(['appointment_id', 'patient_name']).execute();
    await db.destroy();
    return rows;
  }

  it('loses no acknowledged booking when killed with SIGKILL', async () => {
    const server = await startServerProcess({ DATABASE_URL: `file:${dbPath}` });
    const headers = await headersFor(server);
    const acknowledged: number[] = [];
    for (let i = 0; i < 25; i++) {
      const body = JSON.stringify(validBooking({ appointment_date: date, appointment_time: '10:00', patient_name: `Kill Test ${i}` }));
      const res = await fetch(`${server.api}/appointments/book`, { method: 'POST', headers, body });
      expect(res.status).toBe(200);
      acknowledged.push(BookAppointmentResponse.parse(await res.json()).data.appointment_id);
    }

    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');

    const onDisk = (await appointmentsOnDisk()).map((row) => row.appointment_id);
    for (const id of acknowledged) expect(onDisk).toContain(id);
  });

  it('finishes an in-flight booking on SIGTERM, then exits 0', async () => {
    const server = await startServerProcess({ DATABASE_URL: `file:${dbPath}` });
    const headers = await headersFor(server);
    const body = JSON.stringify(validBooking({ appointment_date: date, appointment_time: '11:00', patient_name: 'Drain Test' }));
    const url = new URL(`${server.api}/appointments/book`);

    // Send the headers and half the body, signal, then send the rest.
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 20));
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(20)), 300);
      }, 100);
    });

    const { status, body: text } = await answer;
    expect(status).toBe(200);
    expect((await server.exited).code).toBe(0);
    const id = BookAppointmentResponse.parse(JSON.parse(text)).data.appointment_id;
    expect((await appointmentsOnDisk()).map((row) => row.appointment_id)).toContain(id);
    expect(server.output()).toContain('draining');
  });

  it('refuses to start with one clear line when the port is taken', async () => {
    const holder = await startServerProcess({ DATABASE_URL: `file:${dbPath}` });
    const port = new URL(holder.api).port;
    const second = startServerProcess({ DATABASE_URL: `file:${dbPath}`, PORT: port });
    await expect(second).rejects.toThrow(/port \d+ is already in use/);
    holder.child.kill('SIGTERM');
    await holder.exited;
  });
});
