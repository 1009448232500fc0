import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BffMetrics } from '../../../bff/metrics/bff-metrics.js';
import { OutboxWorker } from '../../../bff/outbox/outbox-worker.js';
import { serveMetrics } from '../../../platform/metrics/metrics-server.js';
import { createLogger } from '../../../platform/logger.js';
import { eventually } from '../../support/eventually.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { silentLogger } from '../../support/silent-logger.js';
import { closeServer } from '../support/bff-harness.js';
import { ENGINES } from '../sites/support/sites-test-database.js';
import { outboxDatabase, type OutboxDatabase } from '../outbox/support/outbox-database.js';
import { queue } from '../outbox/support/outbox-messages.js';
import { postDeliverer } from '../outbox/support/post-deliverer.js';
import { startReceiver } from '../outbox/support/receiver.js';

const T0 = Date.parse(TEST_NOW);

/** The BFF's metrics on a listener of their own, scraped over HTTP as Prometheus would; closed when the test ends. */
async function scraper(metrics: BffMetrics): Promise<() => Promise<string>> {
  const server = await serveMetrics(metrics.registry, { port: 0, host: '127.0.0.1' }, createLogger('silent'));
  onTestFinished(() => closeServer(server));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  return async () => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    return res.text();
  };
}

/** Every sample line of one metric. */
const samplesOf = (text: string, metric: string) => text.split('\n').filter((line) => line.startsWith(`${metric}{`) || line.startsWith(`${metric} `));

async function database(engine: (typeof ENGINES)[number]): Promise<OutboxDatabase> {
  const outbox = await outboxDatabase(engine);
  onTestFinished(() => outbox.close());
  return outbox;
}

describe.each(ENGINES)('the outbox metrics, on %s', (engine) => {
  it('report the messages in each state as the database holds them at each scrape, with no other label', async () => {
    const outbox = await database(engine);
    const metrics = new BffMetrics();
    metrics.observeOutbox(outbox.store);
    const scrape = await scraper(metrics);
    expect(samplesOf(await scrape(), 'bff_outbox_messages')).toEqual(['bff_outbox_messages{state="pending"} 0', 'bff_outbox_messages{state="delivered"} 0', 'bff_outbox_messages{state="dead"} 0']);

    const [delivered, dead] = await queue(outbox.database.db, T0, { count: 4, siteId: 'cbs_metrics' });
    await outbox.store.claimDue('metrics-test', 10, 60_000, T0);
    await outbox.store.markDelivered(delivered!, 'metrics-test', T0);
    await outbox.store.markDead(dead!, 'metrics-test', 'http_410', T0);
    const text = await scrape();

    expect(samplesOf(text, 'bff_outbox_messages')).toEqual(['bff_outbox_messages{state="pending"} 2', 'bff_outbox_messages{state="delivered"} 1', 'bff_outbox_messages{state="dead"} 1']);
    expect(text).toContain('# TYPE bff_outbox_messages gauge');
    expect(text).not.toContain('cbs_metrics');
  });

  it('count each try by channel and outcome', async () => {
    const outbox = await database(engine);
    const metrics = new BffMetrics();
    const scrape = await scraper(metrics);
    const receiver = await startReceiver((_id, before) => (before === 0 ? 503 : 200));
    const clock = new FakeClock(TEST_NOW);
    const [retried] = await queue(outbox.database.db, T0);
    const worker = new OutboxWorker({
      store: outbox.store,
      deliverer: postDeliverer(receiver.url),
      clock,
      settings: { worker: true, retryMaxDelayMs: 300_000, giveUpMs: 3_600_000, retentionMs: 3_600_000 },
      logger: silentLogger(),
      observer: metrics,
      random: () => 0,
      pollMs: 10,
    });
    onTestFinished(() => worker.stop());
    worker.start();
    await eventually(async () => expect((await outbox.store.get(retried!))?.lastError).toBe('http_503'));
    clock.advance(2_500);
    worker.nudge();
    await eventually(async () => expect((await outbox.store.get(retried!))?.state).toBe('delivered'));

    receiver.answer = () => 410;
    const [refused] = await queue(outbox.database.db, clock.now().getTime(), { channel: 'email' });
    worker.nudge();
    await eventually(async () => expect((await outbox.store.get(refused!))?.state).toBe('dead'));

    // A try is counted just after it is recorded: the count may follow the row the test has seen.
    await eventually(async () =>
      expect(samplesOf(await scrape(), 'bff_outbox_deliveries_total').sort()).toEqual([
        'bff_outbox_deliveries_total{channel="email",outcome="dead"} 1',
        'bff_outbox_deliveries_total{channel="webhook",outcome="delivered"} 1',
        'bff_outbox_deliveries_total{channel="webhook",outcome="failed"} 1',
      ]),
    );
  });

  it('leave the gauge out of a scrape while the database cannot be read, and the scrape still answers', async () => {
    const outbox = await database(engine);
    const metrics = new BffMetrics();
    metrics.observeOutbox(outbox.store);
    const scrape = await scraper(metrics);
    expect(samplesOf(await scrape(), 'bff_outbox_messages')).toHaveLength(3);

    await outbox.database.close();

    const text = await scrape();
    expect(samplesOf(text, 'bff_outbox_messages')).toEqual([]);
    expect(text).toContain('bff_outbox_deliveries_total');
  });
});

describe('BffMetrics without an outbox', () => {
  it('has no outbox gauge until one is observed, and takes one only', async () => {
    const metrics = new BffMetrics();
    const scrape = await scraper(metrics);

    expect(await scrape()).not.toContain('bff_outbox_messages');
    metrics.observeOutbox({ counts: () => Promise.resolve({ pending: 3, delivered: 0, dead: 1 }) });
    expect(samplesOf(await scrape(), 'bff_outbox_messages')).toEqual(['bff_outbox_messages{state="pending"} 3', 'bff_outbox_messages{state="delivered"} 0', 'bff_outbox_messages{state="dead"} 1']);
    expect(() => metrics.observeOutbox({ counts: () => Promise.resolve({ pending: 0, delivered: 0, dead: 0 }) })).toThrow(/already observed/);
  });
});
