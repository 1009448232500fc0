import { describe, expect, it } from 'vitest';
import { authenticatedCaller, seedClinic } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';

/** The two budgets of the API say in RateLimit-Policy which one a client is spending (granttoken.test.ts has the limits themselves). */
const ctx = useTestServer({ setup: async (server) => ({ clinic: await seedClinic(server) }) });

describe('the rate limits of the API', () => {
  it('name their policies: "granttoken" per IP on POST /granttoken, "api" per key on every other endpoint', async () => {
    const exchange = await fetch(`${ctx.server.api}/granttoken`, {
      method: 'POST',
      headers: { 'x-app-key': ctx.clinic.appKey, 'x-app-secret-key': ctx.clinic.secret },
    });
    const caller = await authenticatedCaller(ctx.server, ctx.clinic);
    const read = await caller.get('/dentists');

    expect(exchange.headers.get('ratelimit-policy')).toMatch(/^"granttoken"; q=\d+; w=\d+/);
    expect(read.headers.get('ratelimit-policy')).toMatch(/^"api"; q=\d+; w=\d+/);
  });
});
