import { describe, expect, it } from 'vitest';
import { BffErrorBody } from '../../../contract/bff.js';
import { normaliseReference } from '../../../contract/rules/bff-api.js';
import { book, requestChange, startChangesStack } from './support/changes-stack.js';

/**
 * The change requests' two limits: per client IP (CHANGE_RATE_LIMIT, every
 * request counted) and per booking from any IP (CHANGE_BOOKING_RATE_LIMIT),
 * each answering 429 rate_limited with Retry-After; and no limit's key, no
 * header and no log line carrying the reference.
 */

const FIXED_IP = { 'x-forwarded-for': '198.51.100.7' };

describe('per client IP', async () => {
  const stack = await startChangesStack({ bff: { trustProxy: true, changeRateLimit: { limit: 3, windowMs: 3600_000 } } });

  it('answers the fourth request of an hour 429, whatever the first three were', async () => {
    const { data } = await book(stack, { appointment_time: '09:00' });
    const answers = [
      await requestChange(stack.bff.api, { reference: data.reference, kind: 'cancel' }, FIXED_IP),
      await requestChange(stack.bff.api, { reference: 'K7QF-2M9X-PA4T-Z3RW-8HNC', kind: 'cancel' }, FIXED_IP),
      await requestChange(stack.bff.api, { kind: 'cancel' }, FIXED_IP),
    ];

    const fourth = await requestChange(stack.bff.api, { reference: data.reference, kind: 'move', preferred_starts: [{ date: '2026-11-26', time: '10:00' }] }, FIXED_IP);
    const otherIp = await requestChange(stack.bff.api, { reference: data.reference, kind: 'cancel' }, { 'x-forwarded-for': '198.51.100.8' });

    expect(answers.map((res) => res.status)).toEqual([201, 404, 400]);
    expect(fourth.status).toBe(429);
    expect(BffErrorBody.parse(await fourth.json()).error_code).toBe('rate_limited');
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(fourth.headers.get('ratelimit-policy')).toContain('"change"; q=3; w=3600');
    expect(otherIp.status).toBe(200);
  });
});

describe('per booking', async () => {
  const stack = await startChangesStack({ bff: { trustProxy: true, changeBookingRateLimit: { limit: 2, windowMs: 24 * 3600_000 } } });

  it('answers the third request for one booking 429 from any IP, while another booking is asked for', async () => {
    const { data: one } = await book(stack, { appointment_time: '09:00' });
    const { data: other } = await book(stack, { appointment_time: '09:15' });
    const from = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n}` });

    const first = await requestChange(stack.bff.api, { reference: one.reference, kind: 'cancel' }, from(1));
    const second = await requestChange(stack.bff.api, { reference: one.reference, kind: 'cancel' }, from(2));
    const third = await requestChange(stack.bff.api, { reference: one.reference.toLowerCase(), kind: 'cancel' }, from(3));
    const otherBooking = await requestChange(stack.bff.api, { reference: other.reference, kind: 'cancel' }, from(3));

    expect([first.status, second.status, third.status, otherBooking.status]).toEqual([201, 200, 429, 201]);
    expect(BffErrorBody.parse(await third.json()).message).toContain('this booking');
    expect(third.headers.get('retry-after')).not.toBeNull();
  });

  it('counts no request whose body is refused, nor one whose reference names no booking', async () => {
    const { data } = await book(stack, { appointment_time: '09:30' });

    const refused = [
      await requestChange(stack.bff.api, { reference: data.reference, kind: 'move' }),
      await requestChange(stack.bff.api, { reference: data.reference, kind: 'cancel', preferred_starts: [{ date: '2026-11-26', time: '10:00' }] }),
      await requestChange(stack.bff.api, { reference: data.reference, kind: 'cancel', message: 'bell\u0007' }),
    ];
    const taken = await requestChange(stack.bff.api, { reference: data.reference, kind: 'cancel' });

    expect(refused.map((res) => res.status)).toEqual([400, 400, 400]);
    expect(taken.status).toBe(201);
  });

  it('keeps the reference out of every header and log line', async () => {
    const { data } = await book(stack, { appointment_time: '09:45' });

    const res = await requestChange(stack.bff.api, { reference: data.reference, kind: 'cancel' });

    const symbols = normaliseReference(data.reference);
    const headers = [...res.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
    expect(res.status).toBe(201);
    expect(headers).toContain('"change_booking"');
    for (const text of [headers, stack.bff.logs.join('\n')]) {
      expect(text).not.toContain(data.reference);
      expect(text).not.toContain(symbols);
    }
  });
});
