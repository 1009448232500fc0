import { describe, expect, it } from 'vitest';
import { AvailabilityResponse } from '../../contract/bff.js';
import { validBooking } from '../server/support/test-server.js';
import { startBff, startStack, type RunningBff } from './support/bff-harness.js';

/**
 * Each BFF app keeps its caches and what it learns to itself: two
 * apps made in one process, without Redis, share nothing through module
 * state, as two processes would not.
 */

const stack = await startStack();
const other = await startBff(stack.upstream.api, stack.clinic, {}, stack.upstream.clock);

const slotAt = async (bff: RunningBff, time: string) =>
  AvailabilityResponse.parse(await (await fetch(`${bff.api}/availability?date=2026-11-24&doctor_id=1`)).json()).data.slots.find((slot) => slot.time === time)
    ?.status;

describe('two BFF apps in one process', () => {
  it('each fill their own content cache from upstream', async () => {
    expect((await fetch(`${stack.bff.api}/treatments`)).status).toBe(200);
    expect(stack.upstreamHits('/treatments')).toBe(1);

    expect((await fetch(`${other.api}/treatments`)).status).toBe(200);

    expect(stack.upstreamHits('/treatments')).toBe(2);
  });

  it('each know only the taken slots they learnt themselves', async () => {
    const res = await fetch(`${stack.bff.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validBooking({ doctor_id: 1, appointment_time: '14:00' })),
    });
    expect(res.status).toBe(200);

    expect(await slotAt(stack.bff, '14:00')).toBe('taken');
    expect(await slotAt(other, '14:00')).toBe('open');
  });
});
