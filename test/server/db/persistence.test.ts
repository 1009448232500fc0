import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookAppointmentResponse } from '../../../contract/index.js';
import { dentistSlots, nextWeekdayInLondon, type DentistSlot } from '../support/future-slot.js';
import { startServerProcess } from '../support/server-process.js';
import { appointmentIdsIn, authHeaders, seedDatabase, type SeededKeys } from '../support/seed-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { authenticatedCaller, seedClinic, startTestServer, validBooking } from '../support/test-server.js';
import { eventually } from '../../support/eventually.js';

// Every test here runs on the engine of the run: a SQLite file, or a PostgreSQL database.

describe('persistence', () => {
  it('keeps clinics, keys and appointments across a restart on the same database', async () => {
    const database = await createTestDatabase();
    try {
      const first = await startTestServer({ database });
      const clinic = await seedClinic(first);
      const caller = await authenticatedCaller(first, clinic);
      const booked = BookAppointmentResponse.parse(await (await caller.post('/appointments/book', validBooking())).json());
      await first.close();

      const second = await startTestServer({ database });
      const res = await fetch(`${second.api}/appointments/status/${booked.data.appointment_id}`, { headers: caller.headers });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: unknown }).data).toMatchObject({ status: 'Scheduled', name: 'Jane Doe' });
      await second.close();
    } finally {
      await database.remove();
    }
  });
});

// Each test starts a server process: time for a slow start on a busy machine. Every booking names a dentist at a
// time no other booking holds: each goes through the dentist's overlap check, and each is taken.
describe('the server process', { timeout: 60_000 }, () => {
  let database: TestDatabase;
  let keys: SeededKeys;
  let nextSlot: () => DentistSlot;

  beforeAll(async () => {
    database = await createTestDatabase();
    keys = await seedDatabase(database.url);
    nextSlot = dentistSlots(keys.doctorIds, nextWeekdayInLondon());
  }, 60_000);
  afterAll(() => database?.remove());

  it('loses no acknowledged booking when killed with SIGKILL', async () => {
    const server = await startServerProcess({ DATABASE_URL: database.url });
    const headers = await authHeaders(server.api, keys);
    const acknowledged: number[] = [];
    for (let i = 0; i < 25; i++) {
      const body = JSON.stringify(validBooking({ ...nextSlot(), patient_name: `Kill Test ${i}` }));
      const res = await fetch(`${server.api}/appointments/book`, { method: 'POST', headers, body });
      expect(res.status).toBe(200);
      acknowledged.push(BookAppointmentResponse.parse(await res.json()).data.appointment_id);
    }

    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');

    const stored = await appointmentIdsIn(database.url);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  });

  // 16 clients booking without pause; SIGKILL once 60 bookings are acknowledged, with others in flight.
  it('loses no acknowledged booking when killed with SIGKILL in the middle of a burst', { timeout: 60_000 }, async () => {
    const server = await startServerProcess({ DATABASE_URL: database.url, API_RATE_LIMIT: '100000' });
    const headers = await authHeaders(server.api, keys);
    const acknowledged: number[] = [];
    let unanswered = 0;
    let killed = false;
    const client = async (n: number) => {
      // Bounded whatever the timing: at most 100 bookings per client.
      for (let round = 0; round < 100; round++) {
        const body = JSON.stringify(validBooking({ ...nextSlot(), patient_name: `Burst ${n}-${round}` }));
        let status: number;
        let text: string;
        try {
          const res = await fetch(`${server.api}/appointments/book`, { method: 'POST', headers, body });
          status = res.status;
          text = await res.text();
        } catch (error) {
          if (!killed) throw error;
          unanswered++; // the process died before this answer arrived: the client knows nothing was promised
          return;
        }
        expect(status, text).toBe(200);
        acknowledged.push(BookAppointmentResponse.parse(JSON.parse(text)).data.appointment_id);
        if (!killed && acknowledged.length >= 60) {
          killed = true;
          server.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, (_, n) => client(n)));
    expect((await server.exited).signal).toBe('SIGKILL');

    expect(killed).toBe(true);
    expect(unanswered).toBeGreaterThan(0); // bookings were in flight when it died
    const stored = await appointmentIdsIn(database.url);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  });

  it('finishes an in-flight booking on SIGTERM, then exits 0', async () => {
    const server = await startServerProcess({ DATABASE_URL: database.url });
    const headers = await authHeaders(server.api, keys);
    const body = JSON.stringify(validBooking({ ...nextSlot(), patient_name: 'Drain Test' }));
    const url = new URL(`${server.api}/appointments/book`);

    // Send the headers and part of the body; once the server has the request (its 100 Continue), signal; once it
    // says it is draining, send the rest.
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body), expect: '100-continue' } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.once('continue', () => {
        req.write(body.slice(0, 20));
        server.child.kill('SIGTERM');
        eventually(() => expect(server.output()).toContain('draining')).then(() => req.end(body.slice(20)), reject);
      });
      req.flushHeaders();
    });

    const { status, body: text } = await answer;
    expect(status).toBe(200);
    expect((await server.exited).code).toBe(0);
    const id = BookAppointmentResponse.parse(JSON.parse(text)).data.appointment_id;
    expect(await appointmentIdsIn(database.url)).toContain(id);
    expect(server.output()).toContain('draining');
  });

  it('refuses to start with one clear line when the port is taken', async () => {
    // Any listener takes the port; one in this process spares the start of a second server process.
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((holder.address() as AddressInfo).port);
      const second = startServerProcess({ DATABASE_URL: database.url, PORT: port });
      await expect(second).rejects.toThrow(/port \d+ is already in use/);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
