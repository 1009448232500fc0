import type { NotificationEvent } from '../notifications/notification-event.js';
import type { SiteNotifications } from '../notifications/notification-settings.js';
import { newMessageId } from '../outbox/enqueue.js';
import type { NewOutboxMessage, OutboxChannel } from '../outbox/outbox-message.js';

/**
 * The outbox messages that tell the clinic of `event`: one per channel the
 * site has on (an e-mail address: `email`; a webhook: `webhook`), each with an
 * id of its own; none when every channel is off. Whether a channel is still
 * on when a message is delivered is the worker's to read.
 */
export function clinicMessages(notifications: Pick<SiteNotifications, 'email' | 'webhook'>, event: NotificationEvent): NewOutboxMessage[] {
  const channels: OutboxChannel[] = [];
  if (notifications.email !== undefined) channels.push('email');
  if (notifications.webhook !== undefined) channels.push('webhook');
  return channels.map((channel) => ({ id: newMessageId(), channel, event }));
}
