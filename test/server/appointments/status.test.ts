import { describe, expect, it } from 'vitest';
import { AppointmentStatusResponse, BookAppointmentResponse, ErrorBody, type AppointmentStatus } from '../../../contract/index.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { validBooking, type Caller } from '../support/test-server.js';
import { twoClinics, useTestServer } from '../support/use-test-server.js';
import { expectError } from '../../support/expect-error.js';

const clock = new FakeClock(TEST_NOW);
const ctx = useTestServer({ clock, setup: twoClinics() });

/** Books through the API (no dentist, so times never clash) and answers the new appointment_id. */
async function bookAs(who: Caller, overrides: Record<string, unknown> = {}): Promise<number> {
  const res = await who.post('/appointments/book', validBooking(overrides));
  expect(res.status).toBe(200);
  return BookAppointmentResponse.parse(await res.json()).data.appointment_id;
}

const statusOf = (id: number | string) => ctx.caller.get(`/appointments/status/${id}`);

const setStatus = (id: number, status: AppointmentStatus) =>
  ctx.server.db.updateTable('appointments').set({ status }).where('appointment_id', '=', id).execute();

async function expectNotFound(res: Response): Promise<void> {
  expect(res.status).toBe(404);
  const body = (await res.json()) as ErrorBody;
  expect(ErrorBody.parse(body)).toEqual(body);
  expect(body).toEqual({ success: false, message: expect.any(String), error_code: 'not_found' });
}

describe('GET /appointments/status/{id}', () => {
  it('answers Scheduled with the name, date and time as booked', async () => {
    const id = await bookAs(ctx.caller, { patient_name: 'Maria Lopez', appointment_date: '2026-11-26', appointment_time: '15:45' });
    const body = AppointmentStatusResponse.parse(await (await statusOf(id)).json());
    expect(body.data).toStrictEqual({ status: 'Scheduled', name: 'Maria Lopez', date: '2026-11-26', time: '15:45' });
  });

  it.each(['Completed', 'Cancelled'] as const)('answers %s once the clinic has set that status', async (status) => {
    const id = await bookAs(ctx.caller, { appointment_time: '11:00' });
    await setStatus(id, status);
    const body = AppointmentStatusResponse.parse(await (await statusOf(id)).json());
    expect(body.data).toStrictEqual({ status, name: 'Jane Doe', date: '2026-11-24', time: '11:00' });
  });

  it('sends Cache-Control: no-store, since the status changes', async () => {
    const id = await bookAs(ctx.caller);
    const res = await statusOf(id);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(AppointmentStatusResponse.parse(await res.json()).data.status).toBe('Scheduled');
  });

  it.each([
    ['an id that does not exist', '999999'],
    ['an id that does not parse', 'abc'],
  ])('sends Cache-Control: no-store with the 404 for %s too, since the appointment may exist later', async (_name, id) => {
    const res = await statusOf(id);
    expect(res.headers.get('cache-control')).toBe('no-store');
    await expectError(res, 404, 'not_found');
  });

  it('answers 404 not_found for an appointment of another clinic', async () => {
    const foreign = await bookAs(ctx.otherCaller);
    expect((await ctx.otherCaller.get(`/appointments/status/${foreign}`)).status).toBe(200);
    await expectNotFound(await statusOf(foreign));
  });

  it('answers 404 not_found for an id that does not exist', async () => {
    await expectNotFound(await statusOf(999999));
  });

  it.each([
    ['a non-numeric id', 'abc'],
    ['a fractional id', '1.5'],
    ['a negative id', '-1'],
    ['zero', '0'],
    ['a 30-digit id', '123456789012345678901234567890'],
    ['an SQL-looking id', '1%20OR%201=1'],
  ])('answers 404 not_found for %s (%s)', async (_name, id) => {
    await expectNotFound(await statusOf(id));
  });
});
