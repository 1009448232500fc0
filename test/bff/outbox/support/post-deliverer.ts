import type { Deliverer, DeliveryResult, OutboxMessage } from '../../../../bff/outbox/outbox-message.js';

/**
 * A Deliverer for the worker's tests, standing in for the real channels: it
 * POSTs the message's id (as `webhook-id`, the way the webhook channel does)
 * and its event type, never the patient's details, to `url`, and judges the
 * answer by its status only. 410 stands for "no later try can succeed".
 * With `worker`, it says who sends (`x-worker`), for tests of several workers.
 */
export function postDeliverer(url: string, worker?: string): Deliverer & { tries: number } {
  const deliverer = {
    tries: 0,
    async deliver(message: OutboxMessage): Promise<DeliveryResult> {
      deliverer.tries += 1;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'webhook-id': message.id, ...(worker ? { 'x-worker': worker } : {}) },
          body: JSON.stringify({ type: message.event.type }),
        });
        await res.body?.cancel();
        if (res.ok) return { delivered: true };
        return { delivered: false, permanent: res.status === 410, error: `http_${res.status}` };
      } catch {
        return { delivered: false, permanent: false, error: 'unreachable' };
      }
    },
  };
  return deliverer;
}
