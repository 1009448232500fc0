import type { NodemailerError } from 'nodemailer';
import { systemClock, type Clock } from '../../platform/clock.js';
import type { DeliveryResult, OutboxMessage } from '../outbox/outbox-message.js';
import { TLS_FAILURE } from './delivery-error.js';
import { createMailTransport, type MailTransport, type MailTransportTestOptions } from './mail-transport.js';
import type { MailRelay } from './notification-settings.js';
import type { MailSending, OutgoingMail } from './outgoing-mail.js';

/** The longest one try may take, connecting to the last reply: past it the try is abandoned as `timeout`. */
export const MAIL_TRY_DEADLINE_MS = 30_000;

/**
 * Relays held open at once, at most. One per relay URL: the BFF's and each
 * site's own. Past it the one used least recently is closed (once its
 * messages in flight are done), so a BFF of many sites with relays of their
 * own holds a few pools, not one per site it ever sent for.
 */
export const MAIL_RELAYS_MAX = 16;

/** A relay not used for this long is closed at the next send (its pool's connections with it). */
export const MAIL_RELAY_IDLE_MS = 10 * 60_000;

/** Whose e-mail bounced: the clinic's (its address, a setting) or a patient's (an address typed at booking). */
export type MailKind = 'clinic' | 'patient';

/** What the sender reports; BffMetrics counts it (`bff_mail_bounces_total{kind}`). */
export interface MailObserver {
  /** A relay refused the recipient or the message with a 5xx reply: dead at once, never tried again. */
  mailBounced(kind: MailKind): void;
}

/**
 * The message a mail is of: its id (the Message-ID's), and its event when
 * the caller hands the outbox message whole, which says whose mail it is
 * for the bounce counter (`patient.*` events are the patient's).
 */
export type MailOf = Pick<OutboxMessage, 'id'> & { event?: { type: string } };

export interface MailSendersOptions {
  observer?: MailObserver;
  /** MAIL_RELAYS_MAX unless told. */
  maxRelays?: number;
  /** MAIL_RELAY_IDLE_MS unless told. */
  idleMs?: number;
  /** When a relay was last used, against idleMs. */
  clock?: Clock;
  /** Only for tests (a relay with a self-signed certificate): never read from the environment. */
  test?: MailTransportTestOptions;
}

/** A relay's pool and how it is used. */
interface HeldRelay {
  transport: MailTransport;
  lastUsed: number;
  inFlight: number;
  /** Let go (past the cap) while a message was in flight: closed when the last is done. */
  retired: boolean;
}

/**
 * Sends outbox messages' e-mail (MailSending) through whichever relay each
 * is given: the site's own or the BFF's (site-settings.ts, siteMailRelayOf).
 * One pooled transport per relay URL, opened at its first message and kept
 * for the next (MAIL_RELAYS_MAX of them at most; each closed after
 * MAIL_RELAY_IDLE_MS unused, and all at close()).
 *
 * Each mail comes from the relay's sender, signed with its DKIM key when it
 * has one (nodemailer signs, relaxed/relaxed, rsa-sha256), with a Message-ID
 * made of the message's id and the sender's domain, the same on every try,
 * so a mail client shows one mail where at-least-once delivery sent two.
 *
 * Never throws. A failure is a short code for the outbox's `last_error` and
 * the logs (`smtp 421`, `timeout`, `tls required`): never the relay's
 * sentence, which may quote the message or an address back. A 5xx reply to
 * the recipient or the message (RCPT TO, DATA: the address does not exist,
 * the mailbox refuses) is a bounce at send time: `permanent`, counted, and
 * the message is dead at once. Any other failure, a 4xx (try later) or a
 * 5xx to the sender or the login (the relay's settings, which an operator
 * fixes), is a failed try.
 */
export class MailSenders implements MailSending {
  private readonly relays = new Map<string, HeldRelay>();
  private readonly observer: MailObserver | undefined;
  private readonly maxRelays: number;
  private readonly idleMs: number;
  private readonly clock: Clock;
  private readonly test: MailTransportTestOptions;

  constructor(options: MailSendersOptions = {}) {
    this.observer = options.observer;
    this.maxRelays = Math.max(1, options.maxRelays ?? MAIL_RELAYS_MAX);
    this.idleMs = options.idleMs ?? MAIL_RELAY_IDLE_MS;
    this.clock = options.clock ?? systemClock;
    this.test = options.test ?? {};
  }

  /** Sends; never throws. */
  async send(relay: MailRelay, message: MailOf, mail: OutgoingMail): Promise<DeliveryResult> {
    let held: HeldRelay;
    try {
      held = this.acquire(relay.url);
    } catch (error) {
      // A relay URL nodemailer's options cannot be made of (checked when set, so never expected).
      return { delivered: false, permanent: false, error: mailErrorCode(error) };
    }
    try {
      await held.transport.sendMail({
        from: relay.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mailMessageId(message, relay.from),
        headers: {
          ...withoutOwnHeaders(mail.headers),
          // RFC 3834: no auto-reply (out of office) goes back to the sender; Outlook reads the second.
          'Auto-Submitted': 'auto-generated',
          'X-Auto-Response-Suppress': 'All',
        },
        ...(mail.attachments?.length
          ? { attachments: mail.attachments.map(({ filename, content, contentType }) => ({ filename, content, contentType })) }
          : {}),
        ...(relay.dkim ? { dkim: { domainName: relay.dkim.domainName, keySelector: relay.dkim.keySelector, privateKey: relay.dkim.privateKey } } : {}),
        signal: AbortSignal.timeout(MAIL_TRY_DEADLINE_MS),
      });
      return { delivered: true };
    } catch (error) {
      const code = mailErrorCode(error);
      if (!isBounce(error)) return { delivered: false, permanent: false, error: code };
      this.observer?.mailBounced(kindOf(message));
      return { delivered: false, permanent: true, error: code };
    } finally {
      this.release(held);
    }
  }

  /** How many relays are held open now. */
  get openRelays(): number {
    return this.relays.size;
  }

  /** Closes every relay's pool (one with a message in flight once it is done). A later send opens its relay again. */
  close(): void {
    for (const held of this.relays.values()) this.letGo(held);
    this.relays.clear();
  }

  /** The relay's pool, opened if need be, marked in use and most recently used; idle and surplus pools closed. */
  private acquire(url: string): HeldRelay {
    const now = this.clock.now().getTime();
    for (const [key, other] of this.relays) {
      if (other.inFlight === 0 && now - other.lastUsed >= this.idleMs) {
        this.relays.delete(key);
        other.transport.close();
      }
    }
    let held = this.relays.get(url);
    if (held) this.relays.delete(url);
    else held = { transport: createMailTransport({ url }, this.test), lastUsed: now, inFlight: 0, retired: false };
    // The map's order is the order of use: the first entry is the least recently used.
    this.relays.set(url, held);
    held.inFlight++;
    held.lastUsed = now;
    while (this.relays.size > this.maxRelays) {
      const [key, oldest] = this.relays.entries().next().value!;
      this.relays.delete(key);
      this.letGo(oldest);
    }
    return held;
  }

  private release(held: HeldRelay): void {
    held.inFlight--;
    held.lastUsed = this.clock.now().getTime();
    if (held.retired && held.inFlight === 0) held.transport.close();
  }

  /** Closes a pool no longer held, now or when its last message in flight is done. */
  private letGo(held: HeldRelay): void {
    if (held.inFlight === 0) held.transport.close();
    else held.retired = true;
  }
}

/** The Message-ID of a message's e-mail from `from`: `<{id}@{from's domain}>`, the same over every try. */
export function mailMessageId(message: Pick<OutboxMessage, 'id'>, from: string): string {
  return `<${message.id}@${from.slice(from.lastIndexOf('@') + 1)}>`;
}

/** Headers the sender sets itself, which a mail's own headers never replace nor repeat. */
const OWN_HEADERS = new Set(['from', 'to', 'cc', 'bcc', 'subject', 'date', 'message-id', 'auto-submitted', 'x-auto-response-suppress', 'dkim-signature']);

function withoutOwnHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).filter(([name]) => !OWN_HEADERS.has(name.toLowerCase())));
}

/** Whose mail a message is, by its event's type; the clinic's when the caller gave no event. */
function kindOf(message: MailOf): MailKind {
  return message.event?.type.startsWith('patient.') ? 'patient' : 'clinic';
}

/** The relay refused the recipient or the message itself with a 5xx: no later try can deliver it. */
export function isBounce(error: unknown): boolean {
  const { responseCode, command } = (error ?? {}) as NodemailerError;
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600 && (command === 'RCPT TO' || command === 'DATA');
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
