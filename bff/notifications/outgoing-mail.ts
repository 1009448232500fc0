import type { DeliveryResult, OutboxMessage } from '../outbox/outbox-message.js';
import type { MailRelay } from './notification-settings.js';

/** One e-mail, rendered: to whom, in what words, with what extra headers and files. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post); Message-ID and Auto-Submitted are the sender's own. */
  headers?: Record<string, string>;
  attachments?: { filename: string; content: string; contentType: string }[];
}

/**
 * Sends one outbox message's e-mail through a relay (the site's own or the
 * BFF's). Its Message-ID is made of the message's id, the same on every try.
 * Never throws: a failure is a short code; a permanent refusal (a 5xx answer:
 * the recipient rejected) is `permanent`, so the message is dead at once.
 */
export interface MailSending {
  send(relay: MailRelay, message: Pick<OutboxMessage, 'id'>, mail: OutgoingMail): Promise<DeliveryResult>;
}
