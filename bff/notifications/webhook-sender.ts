import type { IncomingMessage } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { systemClock, type Clock } from '../../platform/clock.js';
import { OutboundRefused, type OutboundPolicy, type OutboundTarget } from '../outbound/outbound-policy.js';
import { requestOutbound } from '../outbound/outbound-request.js';
import type { DeliveryResult, OutboxMessage } from '../outbox/outbox-message.js';
import { networkErrorCode } from './delivery-error.js';
import type { NotificationEvent } from './notification-event.js';

/** How long one try may take, connecting to the answer's status line. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** The body of every webhook: Standard Webhooks' payload shape, the event whole in `data`. */
export interface WebhookPayload {
  type: NotificationEvent['type'];
  /** When it happened (the event's own time; the header's is the try's). */
  timestamp: string;
  data: NotificationEvent;
}

export function webhookPayload(event: NotificationEvent): WebhookPayload {
  return { type: event.type, timestamp: event.occurred_at, data: event };
}

export interface WebhookSenderOptions {
  /** The rule of every URL the BFF calls on someone's word (bff/outbound/): a webhook to the BFF's own network is refused unless OUTBOUND_ALLOWLIST allows it. */
  outbound: OutboundPolicy;
  /** The signature's timestamp; receivers refuse one far from their own clock. */
  clock?: Clock;
  timeoutMs?: number;
}

/**
 * POSTs one outbox message to a site's webhook, signed per Standard
 * Webhooks: `webhook-id` is the message's id, the same on every try, so the
 * receiver can drop a repeat; `webhook-timestamp` and `webhook-signature` are
 * the try's. The URL must pass the outbound rule at each try (its DNS may
 * have changed since it was set), and the connection goes to the address
 * that was checked. No redirect is followed: a 3xx is a failed try, as the
 * receiver never said it took the message.
 *
 * Only the answer's status is read: 2xx delivered; 410 Gone permanent (the
 * receiver says this endpoint is gone, as Standard Webhooks has it);
 * anything else a failed try, retried. The body is never read, stored or
 * logged: the connection is closed once the status line is in.
 */
export class WebhookSender {
  private readonly outbound: OutboundPolicy;
  private readonly clock: Clock;
  private readonly timeoutMs: number;

  constructor(options: WebhookSenderOptions) {
    this.outbound = options.outbound;
    this.clock = options.clock ?? systemClock;
    this.timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  }

  /** Sends; never throws. */
  async send(message: OutboxMessage, webhook: { url: string; secret: string }): Promise<DeliveryResult> {
    const body = JSON.stringify(webhookPayload(message.event));
    const sentAt = this.clock.now();
    let signature: string;
    try {
      signature = new Webhook(webhook.secret).sign(message.id, sentAt, body);
    } catch {
      return { delivered: false, permanent: true, error: 'webhook secret unusable' };
    }

    let target: OutboundTarget;
    try {
      target = await this.outbound.check(webhook.url);
    } catch (error) {
      if (error instanceof OutboundRefused) {
        // A name that does not resolve may resolve later; an address inside a network stays refused until the settings change.
        return error.reason === 'unresolved'
          ? { delivered: false, permanent: false, error: 'dns' }
          : { delivered: false, permanent: true, error: `refused ${error.reason}` };
      }
      return { delivered: false, permanent: false, error: 'webhook failed' };
    }

    let res: IncomingMessage;
    try {
      res = await requestOutbound(target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'clinic-booking-bff',
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      return { delivered: false, permanent: false, error: networkErrorCode(error) };
    }
    const status = res.statusCode ?? 0;
    // The answer's body is not ours to read: the connection (never pooled) ends here.
    res.on('error', () => undefined);
    res.destroy();
    if (status >= 200 && status < 300) return { delivered: true };
    return { delivered: false, permanent: status === 410, error: `http ${status}` };
  }
}
