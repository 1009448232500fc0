import { describe, expect, it } from 'vitest';
import { ErrorBody, TreatmentListResponse } from '../../../contract/index.js';
import { KeyStore } from '../../../server/auth/key.store.js';
import { validBooking } from '../../server/support/test-server.js';
import { startStack } from '../support/bff-harness.js';

/**
 * The clinic revokes the key the BFF runs with (a leaked secret). The BFF's
 * cached token dies with it: its next upstream call is refused, it exchanges
 * once more, is refused again, and answers the browser cleanly.
 */

const stack = await startStack();

describe('after the BFF key is revoked', () => {
  it('re-exchanges once on the next call and answers 502 upstream_unavailable with the spec body, never the upstream 401', async () => {
    expect((await fetch(`${stack.bff.api}/treatments`)).status).toBe(200);
    // The website and dentists cached too: the booking's checks read them from the cache, so the booking is the next call.
    expect((await fetch(`${stack.bff.api}/website`)).status).toBe(200);
    const dentists = (await (await fetch(`${stack.bff.api}/dentists`)).json()) as { data: { doctor_id: number }[] };
    const exchangesBefore = stack.upstreamHits('/granttoken');

    await new KeyStore(stack.upstream.db).revoke(stack.clinic.appKey, stack.upstream.clock.now());
    const res = await fetch(`${stack.bff.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validBooking({ doctor_id: dentists.data[0]!.doctor_id })),
    });

    expect(res.status).toBe(502);
    const body = ErrorBody.parse(await res.json());
    expect(body.error_code).toBe('upstream_unavailable');
    expect(body.message).not.toMatch(/token|key|auth/i);
    expect(stack.upstreamHits('/granttoken')).toBe(exchangesBefore + 1);
    expect(stack.upstreamHits('/appointments/book')).toBe(1);
  });

  it('keeps serving content it already holds', async () => {
    // A stack of its own: the key revoked here, after its treatments were cached.
    const own = await startStack();
    const cached = await (await fetch(`${own.bff.api}/treatments`)).text();
    await new KeyStore(own.upstream.db).revoke(own.clinic.appKey, own.upstream.clock.now());

    const res = await fetch(`${own.bff.api}/treatments`);

    expect(res.status).toBe(200);
    expect(await res.text()).toBe(cached);
    expect(TreatmentListResponse.parse(JSON.parse(cached)).data.length).toBeGreaterThan(0);
  });
});
