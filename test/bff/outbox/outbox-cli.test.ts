import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxListing } from '../../../bff/cli/outbox-commands.js';
import { ENGINES } from '../sites/support/sites-test-database.js';
import { auditLines, printed, refusal, sitesCli, sitesCliProcess, type CliResult } from '../sites/support/sites-cli.js';
import { outboxDatabase, type OutboxDatabase } from './support/outbox-database.js';
import { PATIENT_NAME, PATIENT_PHONE, queue } from './support/outbox-messages.js';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

// Each command runs in this process (bff/cli/run-cli.ts through sites-cli.ts), on the real clock; the last suite runs the real process.
describe.each(ENGINES)('npm run bff -- outbox, on %s', { timeout: 60_000 }, (engine) => {
  let outbox: OutboxDatabase;
  const outputs: CliResult[] = [];
  const cli = async (...args: string[]) => {
    const result = await sitesCli(['outbox', ...args], { DATABASE_URL: outbox.testDb.url });
    outputs.push(result);
    return result;
  };
  const db = () => outbox.database.db;

  beforeAll(async () => {
    outbox = await outboxDatabase(engine);
  });
  afterAll(async () => {
    // Whatever any command printed, never the patient a message is about.
    const text = outputs.map((result) => result.stdout + result.stderr).join('\n');
    expect(text).not.toContain(PATIENT_NAME);
    expect(text).not.toContain(PATIENT_PHONE);
    await outbox.close();
  });
  beforeEach(async () => {
    await db().deleteFrom('outbox_messages').execute();
  });

  /** One message in each state, the dead one given up on two hours ago, the delivered one three: their ids. */
  async function oneOfEach(now: number) {
    const [dead] = await queue(db(), now - 5 * HOUR, { siteId: 'cbs_dead', channel: 'email' });
    const [delivered] = await queue(db(), now - 4 * HOUR);
    const [pending] = await queue(db(), now - HOUR, { siteId: 'cbs_pending' });
    await outbox.store.claimDue('cli-test', 2, 60_000, now - 4 * HOUR);
    await outbox.store.markDead(dead!, 'cli-test', 'http_410', now - 2 * HOUR);
    await outbox.store.markDelivered(delivered!, 'cli-test', now - 3 * HOUR);
    await outbox.store.claimDue('cli-test', 1, 60_000, now - HOUR);
    await outbox.store.scheduleRetry(pending!, 'cli-test', now + 60_000, 'http_503');
    return { dead: dead!, delivered: delivered!, pending: pending! };
  }

  it('lists the newest messages with their state and tries, never their content', async () => {
    const now = Date.now();
    const { dead, delivered, pending } = await oneOfEach(now);

    const listed = printed<OutboxListing[]>(await cli('list'));

    expect(listed).toEqual([
      { id: pending, site_id: 'cbs_pending', channel: 'webhook', event_type: 'booking.created', state: 'pending', attempts: 1, created_at: iso(now - HOUR), next_attempt_at: iso(now + 60_000), finished_at: null, last_error: 'http_503' },
      { id: delivered, site_id: 'default', channel: 'webhook', event_type: 'booking.created', state: 'delivered', attempts: 1, created_at: iso(now - 4 * HOUR), next_attempt_at: null, finished_at: iso(now - 3 * HOUR), last_error: null },
      { id: dead, site_id: 'cbs_dead', channel: 'email', event_type: 'booking.created', state: 'dead', attempts: 1, created_at: iso(now - 5 * HOUR), next_attempt_at: null, finished_at: iso(now - 2 * HOUR), last_error: 'http_410' },
    ]);
  });

  it('lists one state, and no more than --limit', async () => {
    const { dead } = await oneOfEach(Date.now());
    await queue(db(), Date.now());

    expect(printed<OutboxListing[]>(await cli('list', '--state', 'dead')).map((entry) => entry.id)).toEqual([dead]);
    expect(printed<OutboxListing[]>(await cli('list', '--state', 'pending', '--limit', '1'))).toHaveLength(1);
    expect(printed<OutboxListing[]>(await cli('list', '--limit', '2'))).toHaveLength(2);
  });

  it('brings one dead message back by its id, with an audit line', async () => {
    const { dead } = await oneOfEach(Date.now());

    const result = await cli('retry', '--id', dead);

    expect(printed(result)).toEqual({ retried: 1 });
    expect(auditLines(result)).toEqual([{ audit: 'outbox.retried', at: expect.stringMatching(/^\d{4}-/), message_id: dead }]);
    expect(await outbox.store.get(dead)).toMatchObject({ state: 'pending', attempts: 1, finishedAt: null });
  });

  it('brings every dead message back', async () => {
    await oneOfEach(Date.now());
    await oneOfEach(Date.now());

    const result = await cli('retry', '--dead');

    expect(printed(result)).toEqual({ retried: 2 });
    expect(auditLines(result)).toEqual([{ audit: 'outbox.retried', at: expect.any(String), dead: 2 }]);
    expect(await outbox.store.counts()).toEqual({ pending: 4, delivered: 2, dead: 0 });
  });

  it('refuses to retry a message that is not dead, or not there', async () => {
    const { pending, delivered } = await oneOfEach(Date.now());

    expect(refusal(await cli('retry', '--id', pending))).toBe(`bff: message ${pending} is pending, not dead: only dead messages are retried`);
    expect(refusal(await cli('retry', '--id', delivered))).toBe(`bff: message ${delivered} is delivered, not dead: only dead messages are retried`);
    expect(refusal(await cli('retry', '--id', 'msg_nothere'))).toBe('bff: unknown message: "msg_nothere"');
  });

  it('purges the delivered messages finished more than N hours ago, and every dead one', async () => {
    const now = Date.now();
    const { delivered, dead } = await oneOfEach(now);

    expect(printed(await cli('purge', '--state', 'delivered', '--older-than-hours', '4'))).toEqual({ purged: 0 });
    const purged = await cli('purge', '--state', 'delivered', '--older-than-hours', '2');
    expect(printed(purged)).toEqual({ purged: 1 });
    expect(auditLines(purged)).toEqual([{ audit: 'outbox.purged', at: expect.any(String), state: 'delivered', older_than_hours: 2, purged: 1 }]);
    expect(printed(await cli('purge', '--state', 'dead'))).toEqual({ purged: 1 });

    expect(await outbox.store.get(delivered)).toBeUndefined();
    expect(await outbox.store.get(dead)).toBeUndefined();
    expect(await outbox.store.counts()).toEqual({ pending: 1, delivered: 0, dead: 0 });
  });

  it.each<[string, string[], RegExp]>([
    ['a state that does not exist', ['list', '--state', 'lost'], /^bff: --state must be pending, delivered, dead; not "lost"$/],
    ['a limit of 0', ['list', '--limit', '0'], /^bff: --limit must be a whole number from 1 to 1000; not "0"$/],
    ['a limit that is not a number', ['list', '--limit', 'ten'], /^bff: --limit must be a whole number from 1 to 1000; not "ten"$/],
    ['an unknown option', ['list', '--payload'], /^bff: Unknown option '--payload'/],
    ['retry with neither --id nor --dead', ['retry'], /^bff: outbox retry takes --id ID or --dead \(every dead message\), one of them$/],
    ['retry with both', ['retry', '--id', 'msg_x', '--dead'], /^bff: outbox retry takes --id ID or --dead/],
    ['purge without --state', ['purge'], /^bff: --state is required: delivered or dead \(pending messages are never purged\)$/],
    ['purge of pending messages', ['purge', '--state', 'pending'], /^bff: --state must be delivered, dead; not "pending"$/],
    ['a negative age', ['purge', '--state', 'dead', '--older-than-hours=-1'], /^bff: --older-than-hours must be a whole number from 0 to 87600; not "-1"$/],
    ['an age in fractions', ['purge', '--state', 'dead', '--older-than-hours', '1.5'], /^bff: --older-than-hours must be a whole number from 0 to 87600; not "1.5"$/],
    ['an unknown command', ['frob'], /^bff: unknown command: outbox frob \(outbox list, retry, purge\)$/],
    ['no command', [], /^bff: usage: bff outbox <command> +outbox list /],
  ])('refuses %s with one line and exit code 2, changing nothing', async (_case, args, message) => {
    const { dead } = await oneOfEach(Date.now());

    expect(refusal(await cli(...args))).toMatch(message);

    expect(await outbox.store.counts()).toEqual({ pending: 1, delivered: 1, dead: 1 });
    expect((await outbox.store.get(dead))?.state).toBe('dead');
  });
});

describe('the bff process runs the outbox commands', { timeout: 60_000 }, () => {
  let outbox: OutboxDatabase;
  beforeAll(async () => {
    outbox = await outboxDatabase('sqlite');
  });
  afterAll(() => outbox.close());

  it('lists the outbox as JSON on stdout with exit code 0', async () => {
    const [id] = await queue(outbox.database.db, Date.now());

    const result = await sitesCliProcess(['outbox', 'list'], { DATABASE_URL: outbox.testDb.url });

    expect(printed<OutboxListing[]>(result).map((entry) => [entry.id, entry.state])).toEqual([[id, 'pending']]);
    expect(result.stdout).not.toContain(PATIENT_NAME);
  });

  it('names every command group when given none it knows', async () => {
    expect(refusal(await sitesCliProcess(['frob'], { DATABASE_URL: outbox.testDb.url }))).toBe('bff: unknown command: frob (sites, outbox, patients)');
  });
});
