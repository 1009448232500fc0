import type { NodemailerError } from 'nodemailer';
import type { DeliveryResult, OutboxMessage } from '../outbox/outbox-message.js';
import { renderClinicMail } from './clinic-mail.js';
import { TLS_FAILURE } from './delivery-error.js';
import type { MailLanguage } from './mail-language.js';
import { createMailTransport, type MailTransport, type MailTransportTestOptions } from './mail-transport.js';
import type { MailRelay } from './notification-settings.js';

/** The longest one try may take, connecting to the last reply: past it the try is abandoned as `timeout`. */
export const MAIL_TRY_DEADLINE_MS = 30_000;

/** Where one site's e-mail goes and in which words. */
export interface MailRecipient {
  address: string;
  language: MailLanguage;
  /** Named in the mail's last line, when the site has a name. */
  clinicName?: string;
}

/**
 * Sends the e-mail of one outbox message through the relay (SMTP_URL), from
 * MAIL_FROM. Its Message-ID is made of the message's id, the same on every
 * try, so a mail client shows one mail where at-least-once delivery sent two.
 * A failure is a short code for the outbox's `last_error` and the logs
 * (`smtp 421`, `timeout`, `tls required`): never the relay's sentence, which
 * may quote the message or an address back.
 */
export class MailSender {
  private readonly transport: MailTransport;
  private readonly domain: string;

  constructor(
    private readonly relay: MailRelay,
    test: MailTransportTestOptions = {},
  ) {
    this.transport = createMailTransport(relay, test);
    this.domain = relay.from.slice(relay.from.lastIndexOf('@') + 1);
  }

  /** The Message-ID of a message's e-mail: the same over every try. */
  messageIdOf(message: Pick<OutboxMessage, 'id'>): string {
    return `<${message.id}@${this.domain}>`;
  }

  /** Sends; never throws. */
  async send(message: OutboxMessage, to: MailRecipient): Promise<DeliveryResult> {
    try {
      const mail = renderClinicMail(message.event, to.language, to.clinicName);
      await this.transport.sendMail({
        from: this.relay.from,
        to: to.address,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: this.messageIdOf(message),
        headers: {
          // RFC 3834: no auto-reply (out of office) goes back to MAIL_FROM; Outlook reads the second.
          'Auto-Submitted': 'auto-generated',
          'X-Auto-Response-Suppress': 'All',
        },
        signal: AbortSignal.timeout(MAIL_TRY_DEADLINE_MS),
      });
      return { delivered: true };
    } catch (error) {
      return { delivered: false, permanent: false, error: mailErrorCode(error) };
    }
  }

  /** Closes the transport (it holds no connection between messages). */
  close(): void {
    this.transport.close();
  }
}

/** A failed try in a few words, from nodemailer's code and the relay's reply code only. */
export function mailErrorCode(error: unknown): string {
  const { code, command, responseCode, originalCode, name } = (error ?? {}) as NodemailerError;
  if (code === 'EABORT' || code === 'ETIMEDOUT' || name === 'AbortError' || name === 'TimeoutError') return 'timeout';
  // The relay answered STARTTLS with a refusal: it does not offer TLS, which smtp:// to another machine requires.
  if (code === 'ETLS') return command === 'STARTTLS' && responseCode !== undefined ? 'tls required' : 'tls failed';
  if (code === 'EAUTH' || code === 'ENOAUTH') return responseCode ? `smtp auth ${responseCode}` : 'smtp auth';
  if (typeof responseCode === 'number' && responseCode > 0) return `smtp ${responseCode}`;
  if (code === 'EDNS') return 'dns';
  if (originalCode && TLS_FAILURE.test(originalCode)) return `tls ${originalCode}`;
  if (code === 'ESOCKET' || code === 'ECONNECTION') return originalCode ? `network ${originalCode}` : 'connection lost';
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? `mail ${code}` : 'mail failed';
}
