import { describe, expect, it } from 'vitest';
import { BookAppointmentResponse } from '../../../contract/index.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { authenticatedCaller, seedClinic, validBooking } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';

/** An Idempotency-Key is remembered for 24 hours (booking.test.ts shows it forgotten after them). */
const clock = new FakeClock(TEST_NOW);
const ctx = useTestServer({ clock, setup: async (server) => ({ clinic: await seedClinic(server) }) });

describe('POST /appointments/book with an Idempotency-Key', () => {
  it('still replays the first answer a minute before 24 hours have passed', async () => {
    const body = validBooking({ appointment_date: '2026-12-01', appointment_time: '10:00' });
    const first = await (await authenticatedCaller(ctx.server, ctx.clinic)).post('/appointments/book', body, { 'idempotency-key': 'day-long' });
    const booked = BookAppointmentResponse.parse(await first.json());
    clock.advance(24 * 3600_000 - 60_000);

    // A new token: the first one expired after an hour.
    const again = await (await authenticatedCaller(ctx.server, ctx.clinic)).post('/appointments/book', body, { 'idempotency-key': 'day-long' });

    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(BookAppointmentResponse.parse(await again.json())).toEqual(booked);
  });
});

describe('POST /appointments/book storing an answer under an Idempotency-Key', () => {
  it("forgets other keys past their 24 hours, and keeps the new key's answer", async () => {
    const keysOf = async () =>
      (await ctx.server.db.selectFrom('idempotency_keys').select('idempotency_key').orderBy('idempotency_key').execute()).map((row) => row.idempotency_key);
    const body = validBooking({ appointment_date: '2026-12-03', appointment_time: '10:00' });
    await (await authenticatedCaller(ctx.server, ctx.clinic)).post('/appointments/book', body, { 'idempotency-key': 'window-old' });
    expect(await keysOf()).toContain('window-old');
    clock.advance(24 * 3600_000 + 1000);

    const res = await (await authenticatedCaller(ctx.server, ctx.clinic)).post('/appointments/book', { ...body, appointment_time: '11:00' }, { 'idempotency-key': 'window-new' });

    expect(res.status).toBe(200);
    expect(await keysOf()).toEqual(['window-new']);
  });
});
