import { systemClock } from '../../../../platform/clock.js';
import { createLogger } from '../../../../platform/logger.js';
import { OutboxStore } from '../../../../bff/outbox/outbox-store.js';
import { OutboxWorker } from '../../../../bff/outbox/outbox-worker.js';
import { openSitesDatabase } from '../../../../bff/sites/sites-database.js';
import { postDeliverer } from './post-deliverer.js';

/**
 * A BFF's outbox worker alone, in a process of its own (worker-process-runner.ts
 * starts it): on DATABASE_URL, delivering to RECEIVER_URL through the test
 * deliverer (as WORKER_NAME, if given), on the real clock and the production lease. Its logs go to stderr;
 * SIGTERM stops it as main.ts would. What the tests of other processes kill -9.
 */
const databaseUrl = process.env.DATABASE_URL!;
const receiverUrl = process.env.RECEIVER_URL!;

const database = await openSitesDatabase(databaseUrl);
const worker = new OutboxWorker({
  store: new OutboxStore(database.db, database.engine),
  deliverer: postDeliverer(receiverUrl, process.env.WORKER_NAME),
  clock: systemClock,
  settings: { worker: true, retryMaxDelayMs: 300_000, giveUpMs: 24 * 3_600_000, retentionMs: 72 * 3_600_000 },
  logger: createLogger('info', { write: (line: string) => void process.stderr.write(line) }),
  pollMs: 10,
});
// The worker's own timers never keep a process alive (main.ts has its server for that); this one does.
const alive = setInterval(() => undefined, 60_000);
process.once('SIGTERM', () => {
  clearInterval(alive);
  void worker
    .stop()
    .then(() => database.close())
    .then(() => process.exit(0));
});
worker.start();
process.stdout.write(`${JSON.stringify({ owner: worker.owner })}\n`);
