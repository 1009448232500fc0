import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../contract/index.js';
import { BffBookingResponse, BffStatusResponse } from '../../../contract/bff.js';
import { createLegacyReference, createReference, readReference } from '../../../bff/booking/booking-reference.js';
import { formatReference, normaliseReference, REFERENCE_ALPHABET, REFERENCE_PATTERN } from '../../../contract/rules/bff-api.js';
import { validBooking } from '../../server/support/test-server.js';
import { appointmentIdOf, startBff, startStack, type RunningBff } from '../support/bff-harness.js';

/**
 * References a patient can read out on the phone, and the status lookup that
 * takes them in a POST body: any spelling a person would type, tampering
 * refused without an upstream call, old references still working, the old
 * GET deprecated, and a per-IP limit on lookups.
 */

let reference: string;
let appointmentId: number;

const stack = await startStack({ bff: { statusRateLimit: { limit: 100_000, windowMs: 60_000 } } });
beforeAll(async () => {
  const res = await fetch(`${stack.bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(validBooking({ patient_name: 'Phone Patient', appointment_time: '09:00' })),
  });
  ({ reference } = BffBookingResponse.parse(await res.json()).data);
  appointmentId = appointmentIdOf(stack.bff, reference);
});

const lookUp = (body: unknown, bff: RunningBff = stack.bff) =>
  fetch(`${bff.api}/appointments/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const statusHits = () =>
  stack.upstream.logs.filter((line) =>
    ((JSON.parse(line) as { req?: { path?: string } }).req?.path ?? '').startsWith('/api/v1/appointments/status/'),
  ).length;

async function expectFound(res: Response): Promise<void> {
  expect(res.status).toBe(200);
  expect(BffStatusResponse.parse(await res.json()).data.name).toBe('Phone Patient');
}

async function expectNotFoundWithoutUpstream(candidate: string): Promise<void> {
  const before = statusHits();
  const res = await lookUp({ reference: candidate });
  expect(res.status).toBe(404);
  expect(ErrorBody.parse(await res.json()).error_code).toBe('not_found');
  expect(statusHits()).toBe(before);
}

describe('a booking reference', () => {
  it('is 20 Crockford symbols (no I, L, O or U) in five groups of four', () => {
    expect(reference).toMatch(REFERENCE_PATTERN);
    expect(reference.replaceAll('-', '')).toHaveLength(20);
    expect(reference).not.toMatch(/[ILOU]/);
  });

  it('round-trips to its appointment id, for the smallest and the largest 32-bit id', () => {
    const key = stack.bff.config.referenceKey;
    for (const id of [1, appointmentId, 2 ** 32 - 1]) {
      const issued = createReference(id, key);
      expect(issued).toMatch(REFERENCE_PATTERN);
      expect(readReference(issued, key)).toBe(id);
    }
  });

  it('falls back to the 54-character form for an id of 2^32 and above, which still reads back', () => {
    const key = stack.bff.config.referenceKey;

    const issued = createReference(2 ** 32, key);

    expect(issued).toMatch(/^[A-Za-z0-9_-]{54}$/);
    expect(readReference(issued, key)).toBe(2 ** 32);
  });

  it('names no appointment when it seals id 0 (ids start at 1) or, in the 54-character form, an id past 2^53', () => {
    const key = stack.bff.config.referenceKey;

    expect(readReference(createReference(0, key), key)).toBeUndefined();
    expect(readReference(createLegacyReference(0, key), key)).toBeUndefined();
    expect(readReference(createLegacyReference(2 ** 60, key), key)).toBeUndefined();
  });

  /** The 100 bits of a short reference, and the same ciphertext sealed under any marker with the MAC the key gives it (booking-reference.ts, shortMac). */
  function shortParts(reference: string, key: Buffer) {
    const symbols = reference.replaceAll('-', '');
    const value = [...symbols].reduce((sum, symbol) => (sum << 5n) | BigInt(REFERENCE_ALPHABET.indexOf(symbol)), 0n);
    const cipher = Number((value >> 64n) & 0xffffffffn);
    const macKey = createHmac('sha256', key).update('booking-reference-short-mac').digest();
    const sealed = (marker: number) => {
      const message = Buffer.alloc(5);
      message.writeUInt8(marker, 0);
      message.writeUInt32BE(cipher, 1);
      let next = (BigInt(marker) << 96n) | (BigInt(cipher) << 64n) | createHmac('sha256', macKey).update(message).digest().readBigUInt64BE(0);
      let text = '';
      for (let i = 0; i < 20; i++, next >>= 5n) text = REFERENCE_ALPHABET[Number(next & 31n)]! + text;
      return text;
    };
    return { symbols, marker: Number(value >> 96n), sealed };
  }

  it('is issued in format 2 (the id under FF1): its first 4 bits say so', () => {
    const { symbols, marker, sealed } = shortParts(reference, stack.bff.config.referenceKey);

    expect(marker).toBe(2);
    expect(sealed(2)).toBe(symbols);
  });

  it('names no appointment under a format marker no format has, even with a MAC made by the key', () => {
    const key = stack.bff.config.referenceKey;
    const { sealed } = shortParts(reference, key);

    expect(readReference(sealed(2), key)).toBe(appointmentId);
    for (const marker of [0, 3, 8, 15]) expect(readReference(sealed(marker), key)).toBeUndefined();
  });

  it('is normalised the same way the widget does: case, dashes, spaces and look-alikes', () => {
    expect(normaliseReference(' k7qf-2m9x pa4t-z3rw-8hnc ')).toBe('K7QF2M9XPA4TZ3RW8HNC');
    expect(normaliseReference('IL0O')).toBe('1100');
    expect(formatReference('K7QF2M9XPA4TZ3RW8HNC')).toBe('K7QF-2M9X-PA4T-Z3RW-8HNC');
  });
});

describe('POST /api/appointments/status', () => {
  it('answers the status of a genuine reference, never cached', async () => {
    const res = await lookUp({ reference });

    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('deprecation')).toBeNull();
    await expectFound(res);
  });

  it('accepts the reference in lower case, without dashes, with spaces, and with I, L and O for 1 and 0', async () => {
    const symbols = reference.replaceAll('-', '');
    const lookAlike = symbols.replaceAll('1', 'l').replaceAll('0', 'O');

    await expectFound(await lookUp({ reference: reference.toLowerCase() }));
    await expectFound(await lookUp({ reference: symbols }));
    await expectFound(await lookUp({ reference: symbols.match(/.{5}/g)!.join(' ') }));
    await expectFound(await lookUp({ reference: lookAlike }));
    await expectFound(await lookUp({ reference: symbols.replaceAll('1', 'I') }));
  });

  it('refuses every single changed symbol with 404, without an upstream call', async () => {
    const symbols = reference.replaceAll('-', '');
    for (let index = 0; index < symbols.length; index++) {
      for (const delta of [1, 16]) {
        const changed = REFERENCE_ALPHABET[(REFERENCE_ALPHABET.indexOf(symbols[index]!) + delta) % 32]!;
        await expectNotFoundWithoutUpstream(formatReference(symbols.slice(0, index) + changed + symbols.slice(index + 1)));
      }
    }
  });

  it('refuses a truncated, lengthened or U-holding reference with 404, without an upstream call', async () => {
    await expectNotFoundWithoutUpstream(reference.slice(0, -1));
    await expectNotFoundWithoutUpstream(`${reference}7`);
    await expectNotFoundWithoutUpstream(`U${reference.slice(1)}`);
  });

  it('still answers a reference in the earlier 54-character form', async () => {
    const legacy = createLegacyReference(appointmentId, stack.bff.config.referenceKey);

    await expectFound(await lookUp({ reference: legacy }));
  });

  it('answers 400 validation_error for a body without a reference, and 415 for one not JSON', async () => {
    const missing = await lookUp({});
    expect(missing.status).toBe(400);
    expect(ErrorBody.parse(await missing.json()).message).toContain('reference');

    const text = await fetch(`${stack.bff.api}/appointments/status`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: reference });
    expect(text.status).toBe(415);
  });

  it('never logs the reference', async () => {
    await lookUp({ reference });

    expect(stack.bff.logs.join('\n')).not.toContain(reference);
    expect(stack.bff.logs.join('\n')).not.toContain(reference.replaceAll('-', ''));
  });
});

describe('GET /api/appointments/status/:reference (deprecated)', () => {
  it('still answers, with Deprecation, Sunset and a Link to the POST', async () => {
    const res = await fetch(`${stack.bff.api}/appointments/status/${reference}`);

    expect(res.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(new Date(res.headers.get('sunset') ?? '').getTime()).toBeGreaterThan(Date.parse('2026-11-22'));
    expect(res.headers.get('link')).toBe('</api/appointments/status>; rel="successor-version"');
    await expectFound(res);
  });

  it('accepts the same spellings as the POST', async () => {
    await expectFound(await fetch(`${stack.bff.api}/appointments/status/${reference.toLowerCase().replaceAll('-', '')}`));
  });
});

describe('the status lookup limit (STATUS_RATE_LIMIT)', () => {
  it('answers 429 rate_limited past the limit per IP, on POST and GET alike, before reading the reference', async () => {
    const bff = await startBff(stack.upstream.api, stack.clinic, { statusRateLimit: { limit: 3, windowMs: 60_000 } });
    try {
      const answers = [
        (await lookUp({ reference }, bff)).status,
        (await lookUp({ reference: 'made-up' }, bff)).status,
        (await fetch(`${bff.api}/appointments/status/${reference}`)).status,
        (await lookUp({ reference }, bff)).status,
        (await fetch(`${bff.api}/appointments/status/${reference}`)).status,
      ];

      expect(answers).toEqual([200, 404, 200, 429, 429]);
      const limited = await lookUp({ reference }, bff);
      expect(ErrorBody.parse(await limited.json()).error_code).toBe('rate_limited');
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await bff.close();
    }
  });

  it('defaults to 30 lookups in 10 minutes', async () => {
    const bff = await startBff(stack.upstream.api, stack.clinic);
    try {
      const res = await lookUp({ reference: 'made-up' }, bff);

      expect(res.headers.get('ratelimit-policy')).toContain('"status"; q=30; w=600');
    } finally {
      await bff.close();
    }
  });
});

describe('the deprecation headers across origins', () => {
  it('are exposed to an allowed clinic site by CORS', async () => {
    const res = await fetch(`${stack.bff.api}/appointments/status/${reference}`, { headers: { origin: 'https://clinic.example' } });

    expect(res.headers.get('access-control-allow-origin')).toBe('https://clinic.example');
    expect(res.headers.get('access-control-expose-headers')?.split(',')).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']));
  });
});
