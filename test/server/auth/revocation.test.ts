import { describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../contract/index.js';
import { clinicCli } from '../support/clinic-cli.js';
import { authenticatedCaller, seedClinic } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';

/**
 * Revocation is what a clinic does when a secret leaks: every token issued to
 * the key must stop working at once, however the key came to be revoked.
 */
const ctx = useTestServer();

/** `clinic keys revoke --key K`, the clinic settings area, against the running server's database. */
async function revokeWithCli(appKey: string): Promise<void> {
  const result = await clinicCli(ctx.server.databaseUrl, ['keys', 'revoke', '--key', appKey]);
  expect(result.code, result.stderr).toBe(0);
}

async function expectAuthFailed(res: Response): Promise<void> {
  expect(res.status).toBe(401);
  expect(ErrorBody.parse(await res.json()).error_code).toBe('auth_failed');
}

describe('a token obtained before its key is revoked', () => {
  it('answers 401 auth_failed after `clinic keys revoke`', async () => {
    const clinic = await seedClinic(ctx.server);
    const caller = await authenticatedCaller(ctx.server, clinic);
    expect((await caller.get('/organization')).status).toBe(200);

    await revokeWithCli(clinic.appKey);

    await expectAuthFailed(await caller.get('/organization'));
    await expectAuthFailed(await caller.post('/appointments/book', {}));
  });

  it('answers 401 even where the token row outlived the revocation: the key itself is checked on every request', async () => {
    const clinic = await seedClinic(ctx.server);
    const caller = await authenticatedCaller(ctx.server, clinic);
    // As another tool or a restored backup might leave it: the key marked revoked, its tokens still stored.
    await ctx.server.db.updateTable('api_keys').set({ revoked_at: ctx.server.clock.now().getTime() }).where('app_key', '=', clinic.appKey).execute();
    expect(await ctx.server.db.selectFrom('access_tokens').select('token_hash').where('app_key', '=', clinic.appKey).execute()).toHaveLength(1);

    await expectAuthFailed(await caller.get('/organization'));
  });

  it('refuses a new token for the revoked key', async () => {
    const clinic = await seedClinic(ctx.server);
    await revokeWithCli(clinic.appKey);

    const res = await fetch(`${ctx.server.api}/granttoken`, {
      method: 'POST',
      headers: { 'x-app-key': clinic.appKey, 'x-app-secret-key': clinic.secret },
    });

    await expectAuthFailed(res);
  });
});
