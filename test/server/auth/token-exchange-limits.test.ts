import { describe, expect, it } from 'vitest';
import { FAILURES_PER_IP_FACTOR } from '../../../server/auth/rate-limits.js';
import { authenticatedCaller, seedClinic, type TestServer } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { exchangeFrom as exchangeAnswerFrom } from '../support/exchange-from.js';

const ISSUED = 3;
const FAILED = 2;

interface Answer {
  status: number;
  body: { error_code?: string; access_token?: string };
  headers: Record<string, string | string[] | undefined>;
}

/** exchangeFrom, its body parsed. */
async function exchangeFrom(server: TestServer, from: string, appKey: string, secret: string): Promise<Answer> {
  const { status, text, headers } = await exchangeAnswerFrom(server, from, appKey, secret);
  return { status, body: JSON.parse(text) as Answer['body'], headers };
}

/** The policy a 429 names: the first RateLimit line whose remaining quota is 0. */
const spentPolicy = (answer: Answer) => /"([\w-]+)"; r=0/.exec(String(answer.headers.ratelimit))?.[1];

describe('the limits of POST /granttoken', () => {
  const ctx = useTestServer({
    tokenRateLimit: { limit: ISSUED, windowMs: 60_000 },
    tokenFailureRateLimit: { limit: FAILED, windowMs: 60_000 },
    setup: async (server) => ({ a: await seedClinic(server), b: await seedClinic(server) }),
  });
  // Each test from client IPs of its own, so their counts never meet.
  const right = (from: string, clinic: { appKey: string; secret: string }) => exchangeFrom(ctx.server, from, clinic.appKey, clinic.secret);
  const wrong = (from: string, clinic: { appKey: string }) => exchangeFrom(ctx.server, from, clinic.appKey, 'cs_wrong');

  it(`count tokens issued per IP apart from failures: wrong secrets spend none of it, the ${ISSUED + 1}th token is 429`, async () => {
    expect((await wrong('127.0.0.10', ctx.a)).status).toBe(401);
    const issued = [];
    for (let i = 0; i < ISSUED; i++) issued.push((await right('127.0.0.10', ctx.a)).status);
    expect(issued).toEqual(Array<number>(ISSUED).fill(200));

    const refused = await right('127.0.0.10', ctx.a);

    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error_code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(spentPolicy(refused)).toBe('granttoken');
    expect((await right('127.0.0.11', ctx.a)).status).toBe(200);
  });

  it('stop wrong secrets for a key from one IP, while that key from another IP and another key from that IP go on', async () => {
    const attacker = '127.0.0.20';
    for (let i = 0; i < FAILED; i++) expect((await wrong(attacker, ctx.a)).status).toBe(401);

    const stopped = await wrong(attacker, ctx.a);

    expect(stopped.status).toBe(429);
    expect(stopped.body).toMatchObject({ success: false, error_code: 'rate_limited' });
    expect(Number(stopped.headers['retry-after'])).toBeGreaterThan(0);
    expect(spentPolicy(stopped)).toBe('granttoken-failed');
    // The clinic's BFF, elsewhere, still gets its token; the attacker's IP may still use key B.
    const bff = await right('127.0.0.21', ctx.a);
    expect(bff.status).toBe(200);
    const caller = await authenticatedCaller(ctx.server, ctx.a);
    expect((await caller.get('/dentists')).status).toBe(200);
    expect((await right(attacker, ctx.b)).status).toBe(200);
    // The trade-off: from the attacker's own IP, key A is stopped until the window ends, the right secret too.
    expect((await right(attacker, ctx.a)).status).toBe(429);
  });

  it(`bound one IP's failures over all keys, new or unknown, at ${FAILURES_PER_IP_FACTOR} times those on one key`, async () => {
    const attacker = '127.0.0.30';
    const statuses = [];
    for (let i = 0; i < FAILED * FAILURES_PER_IP_FACTOR; i++) statuses.push((await exchangeFrom(ctx.server, attacker, `ck_made_up_${i}`, 'cs_wrong')).status);
    expect(statuses).toEqual(Array<number>(FAILED * FAILURES_PER_IP_FACTOR).fill(401));

    const stopped = await exchangeFrom(ctx.server, attacker, 'ck_made_up_next', 'cs_wrong');

    expect(stopped.status).toBe(429);
    expect(stopped.body).toMatchObject({ success: false, error_code: 'rate_limited' });
    expect(spentPolicy(stopped)).toBe('granttoken-failed-ip');
    expect((await right(attacker, ctx.b)).status).toBe(429);
    expect((await right('127.0.0.31', ctx.b)).status).toBe(200);
  });
});
