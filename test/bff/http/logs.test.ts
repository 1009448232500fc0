import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validBooking } from '../../server/support/test-server.js';
import { appointmentIdOf, startStack } from '../support/bff-harness.js';
import { eventually } from '../../support/eventually.js';

const PATIENT_NAME = 'Ottoline Wrenfield';
const BffBooked = z.object({ data: z.object({ reference: z.string() }) });

interface LogLine {
  req?: { path?: string };
  res?: { statusCode?: number };
}

let appointmentId: number;
let reference: string;

/** Waits until `logs` holds `count` access lines for `path` (pino-http writes each once its answer has finished). */
async function logged(logs: string[], path: RegExp, count: number): Promise<void> {
  const lines = () => logs.filter((line) => path.test((JSON.parse(line) as LogLine).req?.path ?? '')).length;
  await eventually(() => expect(lines(), `log lines for ${path}`).toBeGreaterThanOrEqual(count));
}

const paths = (logs: string[]) => logs.map((line) => (JSON.parse(line) as LogLine).req?.path).filter(Boolean);

const stack = await startStack();
beforeAll(async () => {
  const booking = await fetch(`${stack.bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(validBooking({ patient_name: PATIENT_NAME })),
  });
  expect(booking.status).toBe(200);
  ({ reference } = BffBooked.parse(await booking.json()).data);
  appointmentId = appointmentIdOf(stack.bff, reference);

  const status = await fetch(`${stack.bff.api}/appointments/status/${reference}`);
  expect(status.status).toBe(200);
  expect(await status.text()).toContain(PATIENT_NAME);
  // The same reference in other spellings the router still answers, or refuses: a trailing slash, another case, a tail.
  await fetch(`${stack.bff.api}/appointments/status/${reference}/`);
  await fetch(`${stack.bff.baseUrl}/API/Appointments/Status/${reference}`);
  await fetch(`${stack.bff.api}/appointments/status/${reference}/more?x=1`);

  await logged(stack.bff.logs, /^\/api\/appointments\/status\//i, 4);
  await logged(stack.upstream.logs, /^\/api\/v1\/appointments\/status\//, 2);
});

describe('logs of a booking and its status lookup through the BFF', () => {
  const everyLine = () => [...stack.bff.logs, ...stack.upstream.logs];

  it('never contain the booking reference, in the BFF or the upstream server', () => {
    expect(stack.bff.logs.length).toBeGreaterThanOrEqual(5);
    for (const line of everyLine()) expect(line.includes(reference), `reference in log line ${line}`).toBe(false);
  });

  it("never contain the patient's name", () => {
    for (const needle of [PATIENT_NAME, 'Ottoline', 'Wrenfield']) {
      for (const line of everyLine()) expect(line.includes(needle), `${needle} in log line ${line}`).toBe(false);
    }
  });

  it("log the BFF's status lookup under its route pattern", () => {
    expect(paths(stack.bff.logs)).toContain('/api/appointments/status/:reference');
  });

  it("keep the upstream status path with its appointment id (ids are not personal data)", () => {
    expect(paths(stack.upstream.logs)).toContain(`/api/v1/appointments/status/${appointmentId}`);
  });

  it('keep every other path as it was asked', () => {
    expect(paths(stack.bff.logs)).toContain('/api/appointments/book');
    expect(paths(stack.upstream.logs)).toContain('/api/v1/appointments/book');
  });
});
