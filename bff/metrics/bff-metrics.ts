import { Counter, Gauge } from 'prom-client';
import { ServiceMetrics } from '../../platform/metrics/service-metrics.js';
import { OUTBOX_STATES, type OutboxChannel, type OutboxState } from '../outbox/outbox-message.js';
import type { DeliveryOutcome, OutboxObserver } from '../outbox/outbox-worker.js';
import type { MailKind, MailObserver } from '../notifications/mail-sender.js';

/** How a content lookup was answered: fresh from cache, a stale copy while it refreshes, or a load from upstream. */
export type CacheLookupResult = 'hit' | 'stale' | 'miss';

/**
 * How an upstream call ended: its answer's status class, upstream busy (429),
 * a timeout, or no answer at all (unreachable, refused redirect, oversize body).
 */
export type UpstreamOutcome = '2xx' | '3xx' | '4xx' | '5xx' | 'busy' | 'timeout' | 'unreachable';

/** What the BFF's parts report as they work; absent (METRICS_PORT unset), nothing is counted. */
export interface BffObserver {
  cacheLookup(resource: string, result: CacheLookupResult): void;
  /** `operation` is a method and route template (`GET /treatments/:id`), never a path with its ids. */
  upstreamRequest(operation: string, outcome: UpstreamOutcome): void;
  tokenExchange(outcome: 'ok' | 'failed' | 'busy'): void;
}

/** Where the outbox gauge reads its numbers (OutboxStore): asked at each scrape. */
export interface OutboxCounts {
  counts(): Promise<Record<OutboxState, number>>;
}

/**
 * The BFF's metrics: the service's own (request durations, bookings) and its
 * cache, upstream and token counters, and the outbox's. Every label value comes from a fixed
 * set in the code (resource names, route templates, outcomes), never from a
 * request, and never names the clinic or site.
 */
export class BffMetrics extends ServiceMetrics implements BffObserver, OutboxObserver, MailObserver {
  private readonly cacheLookups = new Counter({
    name: 'bff_cache_lookups_total',
    help: 'Content cache lookups by resource and result (hit, stale, miss).',
    labelNames: ['resource', 'result'],
    registers: [this.registry],
  });
  private readonly upstreamRequests = new Counter({
    name: 'bff_upstream_requests_total',
    help: 'Calls to the upstream API by operation (method and route template) and outcome.',
    labelNames: ['operation', 'outcome'],
    registers: [this.registry],
  });
  private readonly tokenExchanges = new Counter({
    name: 'bff_token_exchanges_total',
    help: 'Token exchanges with upstream (/granttoken) by outcome: ok, failed, busy.',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly outboxDeliveries = new Counter({
    name: 'bff_outbox_deliveries_total',
    help: 'Tries to deliver an outbox message, by channel (email, webhook) and outcome: delivered, failed (tried again later), dead (given up), withdrawn (nothing to send any more: a reminder of a cancelled booking or an unsubscribed patient).',
    labelNames: ['channel', 'outcome'],
    registers: [this.registry],
  });
  private readonly mailBounces = new Counter({
    name: 'bff_mail_bounces_total',
    help: "E-mails the relay refused with a 5xx reply to the recipient or the message (dead at once), by kind: clinic (the site's address), patient (an address typed at booking).",
    labelNames: ['kind'],
    registers: [this.registry],
  });
  private outboxMessages: Gauge<'state'> | undefined;

  cacheLookup(resource: string, result: CacheLookupResult): void {
    this.cacheLookups.inc({ resource, result });
  }

  upstreamRequest(operation: string, outcome: UpstreamOutcome): void {
    this.upstreamRequests.inc({ operation, outcome });
  }

  tokenExchange(outcome: 'ok' | 'failed' | 'busy'): void {
    this.tokenExchanges.inc({ outcome });
  }

  deliveryTried(channel: OutboxChannel, outcome: DeliveryOutcome): void {
    this.outboxDeliveries.inc({ channel, outcome });
  }

  mailBounced(kind: MailKind): void {
    this.mailBounces.inc({ kind });
  }

  /**
   * Adds `bff_outbox_messages{state}`, read from `outbox` at each scrape: the
   * table is the truth every instance shares, so each reports the same
   * numbers (take max, not sum, across instances). Once per BffMetrics.
   */
  observeOutbox(outbox: OutboxCounts): void {
    if (this.outboxMessages) throw new Error('the outbox is already observed');
    this.outboxMessages = new Gauge({
      name: 'bff_outbox_messages',
      help: 'Messages in the outbox by state: pending (to deliver), delivered (kept until OUTBOX_RETENTION_HOURS), dead (given up).',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        try {
          const counts = await outbox.counts();
          for (const state of OUTBOX_STATES) this.set({ state }, counts[state]);
        } catch {
          // The database unreadable: no number rather than a stale one, which an alert would take for the truth.
          this.reset();
        }
      },
    });
  }
}
