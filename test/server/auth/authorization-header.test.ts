import { describe, expect, it } from 'vitest';
import { grantToken, MISSING_TOKEN, seedClinic } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { DentistListResponse } from '../../../contract/index.js';

/** How the Authorization header of an authenticated request is read (granttoken.test.ts has the everyday cases). */
const ctx = useTestServer({ setup: async (server) => ({ clinic: await seedClinic(server) }) });

const getDentists = (authorization: string) =>
  fetch(`${ctx.server.api}/dentists`, { headers: { 'x-app-key': ctx.clinic.appKey, authorization } });

describe('the Authorization header', () => {
  it.each([
    ['a scheme that only ends in "bearer"', 'Notbearer'],
    ['a scheme that only starts with "bearer"', 'Bearerx'],
  ])('answers 401 missing_token for %s, even with a valid token', async (_case, scheme) => {
    const token = await grantToken(ctx.server, ctx.clinic);

    const res = await getDentists(`${scheme} ${token}`);

    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(MISSING_TOKEN);
  });

  it('accepts the header with spaces around it', async () => {
    const token = await grantToken(ctx.server, ctx.clinic);

    const res = await getDentists(`  Bearer ${token}  `);

    expect(res.status).toBe(200);
    expect(DentistListResponse.parse(await res.json()).data.length).toBeGreaterThan(0);
  });
});
