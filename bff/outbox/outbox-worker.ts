import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { OutboxSettings } from '../notifications/notification-settings.js';
import type { Deliverer, DeliveryResult, OutboxChannel, OutboxEvent, OutboxMessage } from './outbox-message.js';
import type { OutboxStore } from './outbox-store.js';
import { retryDelayMs } from './retry-delay.js';

/**
 * What one try of one message came to: delivered, failed (tried again later),
 * dead (permanent, or given up), or withdrawn (nothing to send any more: deleted).
 */
export type DeliveryOutcome = 'delivered' | 'failed' | 'dead' | 'withdrawn';

/** What the worker reports as it works (the metrics); absent, nothing is counted. */
export interface OutboxObserver {
  deliveryTried(channel: OutboxChannel, outcome: DeliveryOutcome): void;
}

/** How often an idle worker looks for due messages: a new message waits at most this long, unless nudged. */
export const OUTBOX_POLL_MS = 500;
/** Deliveries in flight at once, per worker: enough to drain a burst, few enough to be polite to one receiver. */
export const OUTBOX_CONCURRENCY = 8;
/**
 * How long a claimed message is this worker's alone, unless told
 * (OUTBOX_LEASE_SECONDS' default). Longer than any try may take (the
 * channels give up on a receiver within 30 s), so a message is only taken
 * over from a worker that died or hung.
 */
export const OUTBOX_LEASE_MS = 60_000;
/** How often the delivered and dead messages, booking records and change requests past their time are deleted. */
export const OUTBOX_HOUSEKEEPING_MS = 5 * 60_000;
/** How long stop() waits for deliveries in flight: inside the BFF's SHUTDOWN_TIMEOUT_MS default (10 s). */
export const OUTBOX_STOP_TIMEOUT_MS = 8_000;

export interface OutboxWorkerOptions {
  store: Pick<OutboxStore, 'claimDue' | 'markDelivered' | 'scheduleRetry' | 'markDead' | 'withdraw' | 'forgetExpired'>;
  deliverer: Deliverer<OutboxEvent>;
  clock: Clock;
  settings: OutboxSettings;
  logger: Logger;
  /** Who holds the leases this worker takes; by default this host, this process and random bits (containers all run pid 1). */
  owner?: string;
  observer?: OutboxObserver;
  /** The backoff's randomness (retry-delay.ts); tests pass their own. */
  random?: () => number;
  pollMs?: number;
  concurrency?: number;
  /** OUTBOX_LEASE_SECONDS, in ms (notification-settings.ts bounds it above any try); OUTBOX_LEASE_MS when absent. */
  leaseMs?: number;
  housekeepingMs?: number;
  stopTimeoutMs?: number;
}

/**
 * Delivers the outbox (decision 18): claims due messages under a lease,
 * hands each to the Deliverer, and records what came of it while it still
 * holds the lease: delivered; withdrawn (deleted) when there is nothing to
 * send any more; dead when no later try can succeed or the message has been
 * due for longer than OUTBOX_GIVE_UP_HOURS (counted from its due time: a
 * reminder is queued days before); otherwise tried again after a backoff
 * with jitter. Several workers (BFF instances) share one database
 * safely: a message is leased to one at a time, and a worker that dies leaves
 * its messages to the others once their leases run out, so delivery is at
 * least once and the message id lets a receiver drop the rare repeat.
 *
 * Logs name the message (id, site, channel, event type, try, error code),
 * never its payload: it holds a patient's name and phone.
 */
export class OutboxWorker {
  readonly owner: string;
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly housekeepingMs: number;
  private readonly stopTimeoutMs: number;
  private readonly inFlight = new Set<Promise<void>>();
  private running: Promise<void> | undefined;
  private stopped: Promise<void> | undefined;
  private stopping = false;
  /** Ends the current wait at once (a nudge, a slot freed, stop). */
  private wakeUp: (() => void) | undefined;
  /** A wake-up that came while the loop was not waiting: the next wait returns at once, so none is lost. */
  private woken = false;
  private lastHousekeeping: number | undefined;
  /** The database failed at the last claim: said once per outage, not every poll. */
  private claimFailing = false;

  constructor(private readonly options: OutboxWorkerOptions) {
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.pollMs = options.pollMs ?? OUTBOX_POLL_MS;
    this.concurrency = options.concurrency ?? OUTBOX_CONCURRENCY;
    this.leaseMs = options.leaseMs ?? OUTBOX_LEASE_MS;
    this.housekeepingMs = options.housekeepingMs ?? OUTBOX_HOUSEKEEPING_MS;
    this.stopTimeoutMs = options.stopTimeoutMs ?? OUTBOX_STOP_TIMEOUT_MS;
  }

  /** Starts delivering, unless OUTBOX_WORKER=false leaves delivery to the other instances. Once only. */
  start(): void {
    if (this.running || this.stopping) return;
    if (!this.options.settings.worker) {
      this.options.logger.info('outbox worker off (OUTBOX_WORKER=false): other instances deliver');
      return;
    }
    this.options.logger.info({ owner: this.owner }, 'outbox worker started');
    this.running = this.loop();
  }

  /** Looks for due messages at once rather than at the next poll: for the code that has just queued some. */
  nudge(): void {
    this.wake();
  }

  /**
   * Claims nothing more and waits for the deliveries in flight, at most
   * stopTimeoutMs: one still going then is left to its lease, and another
   * worker tries the message again once it runs out.
   */
  stop(): Promise<void> {
    this.stopped ??= this.drain();
    return this.stopped;
  }

  private async drain(): Promise<void> {
    this.stopping = true;
    this.wake();
    if (!this.running) return;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.stopTimeoutMs);
      timer.unref();
    });
    // The loop ends after its current step (a claim waits at most for the database's own timeouts).
    const drained = this.running.then(() => Promise.allSettled([...this.inFlight])).then(() => 'done' as const);
    const end = await Promise.race([drained, deadline]);
    clearTimeout(timer);
    if (end === 'late') {
      this.options.logger.warn({ owner: this.owner, in_flight: this.inFlight.size }, 'outbox worker stopped with deliveries in flight; their leases run out and another worker tries them again');
    } else {
      this.options.logger.info({ owner: this.owner }, 'outbox worker stopped');
    }
  }

  /** Fills the free delivery slots with due messages; looks again at once while claims come back full, else after pollMs. */
  private async loop(): Promise<void> {
    while (!this.stopping) {
      await this.housekeepIfDue();
      const free = this.concurrency - this.inFlight.size;
      if (free === 0) {
        // Every slot busy: a delivery's end wakes the loop.
        await this.wait(undefined);
        continue;
      }
      const claimed = await this.claim(free);
      for (const message of claimed) this.launch(message);
      if (claimed.length < free) await this.wait(this.pollMs);
    }
  }

  private async claim(limit: number): Promise<OutboxMessage<OutboxEvent>[]> {
    if (this.stopping) return [];
    try {
      const claimed = await this.options.store.claimDue(this.owner, limit, this.leaseMs, this.now());
      if (this.claimFailing) this.options.logger.info('outbox readable again: delivering');
      this.claimFailing = false;
      return claimed;
    } catch (error) {
      // The database busy or gone: the loop goes on and tries again at the next poll.
      if (!this.claimFailing) this.options.logger.error({ err: error }, 'cannot claim outbox messages; trying again');
      this.claimFailing = true;
      return [];
    }
  }

  private launch(message: OutboxMessage<OutboxEvent>): void {
    const delivery = this.deliver(message).finally(() => {
      this.inFlight.delete(delivery);
      this.wake();
    });
    this.inFlight.add(delivery);
  }

  /** One try of one message, and its outcome recorded; never rejects. */
  private async deliver(message: OutboxMessage<OutboxEvent>): Promise<void> {
    const { logger, store, settings } = this.options;
    const fields = {
      message_id: message.id,
      site_id: message.event.site_id,
      channel: message.channel,
      event_type: message.event.type,
      attempt: message.attempts,
    };
    let result: DeliveryResult;
    try {
      result = await this.options.deliverer.deliver(message);
    } catch (error) {
      // A Deliverer never throws; one that does has a bug, and the message is tried again like any failure.
      logger.error({ ...fields, err: error }, 'outbox deliverer threw; counted as a failed try');
      result = { delivered: false, permanent: false, error: 'deliverer_threw' };
    }
    const now = this.now();
    let outcome: DeliveryOutcome;
    try {
      let applied: boolean;
      if (result.delivered) {
        outcome = 'delivered';
        applied = await store.markDelivered(message.id, this.owner, now);
        if (applied) logger.info(fields, 'outbox message delivered');
      } else if ('withdrawn' in result) {
        outcome = 'withdrawn';
        applied = await store.withdraw(message.id, this.owner);
        if (applied) logger.info({ ...fields, reason: result.reason }, 'outbox message withdrawn: nothing to send any more');
      } else if (result.permanent) {
        outcome = 'dead';
        applied = await store.markDead(message.id, this.owner, result.error, now);
        if (applied) logger.warn({ ...fields, error: result.error, reason: 'permanent' }, 'outbox message dead: no later try can succeed');
      } else if (now - (message.dueAt ?? message.createdAt) >= settings.giveUpMs) {
        outcome = 'dead';
        applied = await store.markDead(message.id, this.owner, result.error, now);
        if (applied) logger.warn({ ...fields, error: result.error, reason: 'gave_up' }, 'outbox message dead: undelivered for OUTBOX_GIVE_UP_HOURS');
      } else {
        outcome = 'failed';
        const nextAttemptAt = now + retryDelayMs(message.attempts, settings.retryMaxDelayMs, this.options.random);
        applied = await store.scheduleRetry(message.id, this.owner, nextAttemptAt, result.error);
        if (applied) logger.warn({ ...fields, error: result.error, next_attempt_at: new Date(nextAttemptAt).toISOString() }, 'outbox try failed; trying again later');
      }
      if (!applied) {
        logger.warn({ ...fields, outcome }, 'outbox lease lost: another worker took the message over, whose try decides');
      }
    } catch (error) {
      outcome = result.delivered ? 'delivered' : 'failed';
      logger.error({ ...fields, err: error }, 'cannot record an outbox try; the message is tried again once its lease runs out');
    }
    this.options.observer?.deliveryTried(message.channel, outcome);
  }

  /** forgetExpired every housekeepingMs (by the worker's clock), and at start; a failure waits for the next round. */
  private async housekeepIfDue(): Promise<void> {
    const now = this.now();
    if (this.lastHousekeeping !== undefined && now - this.lastHousekeeping < this.housekeepingMs) return;
    this.lastHousekeeping = now;
    try {
      const forgotten = await this.options.store.forgetExpired(now, this.options.settings.retentionMs);
      if (forgotten.messages + forgotten.bookingRecords + forgotten.changeRequests + forgotten.patientMail > 0) {
        this.options.logger.info(
          { messages: forgotten.messages, booking_records: forgotten.bookingRecords, change_requests: forgotten.changeRequests, patient_mail: forgotten.patientMail },
          'outbox housekeeping: forgot what is past its time',
        );
      }
    } catch (error) {
      this.options.logger.error({ err: error }, 'outbox housekeeping failed; trying again at its next round');
    }
  }

  /** Waits `ms` (undefined: until woken), or less when woken; a wake-up that came before returns at once. */
  private wait(ms: number | undefined): Promise<void> {
    if (this.woken || this.stopping) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      // Unref'd: a worker never keeps a process alive on its own; main.ts stops it on shutdown.
      const timer = ms === undefined ? undefined : setTimeout(() => done(), ms).unref();
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      this.wakeUp = done;
    });
  }

  private wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.woken = true;
  }

  private now(): number {
    return this.options.clock.now().getTime();
  }
}
