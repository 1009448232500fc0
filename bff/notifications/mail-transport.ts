import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type { MailRelay } from './notification-settings.js';

/**
 * An SMTP relay a site's e-mail goes through (SMTP_URL, or the site's own),
 * as nodemailer options built from the URL by hand rather than handed to nodemailer as a
 * URL: its URL form also reads options from the query string
 * (`?tls.rejectUnauthorized=false`), which would let a setting switch off
 * certificate checks. What the URL may say is the scheme, host, port, user
 * and password; nothing else.
 *
 * - `smtp://` is STARTTLS, required (a relay that does not offer it, or
 *   whose upgrade fails, gets nothing: no patient's name crosses a network
 *   in clear), except to a loopback relay, where nodemailer still upgrades
 *   when the relay offers it (so a local relay that offers STARTTLS must
 *   show a certificate Node trusts, e.g. through NODE_EXTRA_CA_CERTS, or
 *   offer none);
 * - `smtps://` is TLS from the first byte.
 *
 * Certificates are checked as Node checks them. Each wait is bounded
 * (MAIL_TIMEOUTS, and the whole try by mail-sender.ts), so a relay that
 * hangs costs one try, never the worker.
 */

/** SMTP connections kept open to one relay at most: as many as the outbox worker has deliveries in flight, about. */
export const MAIL_POOL_CONNECTIONS = 4;

/** How long each step of a try may wait: connecting, the greeting, any silence after it, a DNS lookup. */
export const MAIL_TIMEOUTS = {
  connectionMs: 10_000,
  greetingMs: 10_000,
  socketMs: 20_000,
  dnsMs: 10_000,
} as const;

/** Only for tests that talk to a relay with a self-signed certificate (smtp-server's own): never read from the environment. */
export interface MailTransportTestOptions {
  tls?: Pick<ConnectionOptions, 'rejectUnauthorized' | 'ca'>;
}

export type MailTransport = Transporter<SMTPPool.SentMessageInfo, SMTPPool.Options>;

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Whether a relay's host is this machine: `localhost`, 127.0.0.0/8 or ::1
 * (also written v4-mapped). Any other spelling (`127.1`, a name) is taken as
 * remote, which only asks more of it (STARTTLS).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
  if (host === 'localhost') return true;
  if (isIPv4(host)) return LOOPBACK.check(host, 'ipv4');
  if (isIPv6(host)) return LOOPBACK.check(host, 'ipv6');
  return false;
}

/** The nodemailer options of a relay URL (notification-settings.ts checked its form). */
export function mailTransportOptions(relayUrl: string, test: MailTransportTestOptions = {}): SMTPPool.Options & { pool: true } {
  const url = new URL(relayUrl);
  const secure = url.protocol === 'smtps:';
  if (!secure && url.protocol !== 'smtp:') throw new Error('the mail relay URL must be smtp:// or smtps://');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  return {
    host,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    // smtps: is TLS already. smtp: to another machine must upgrade or stop; to loopback it upgrades when offered.
    requireTLS: !secure && !isLoopbackHost(host),
    ...(user || pass ? { auth: { user, pass } } : {}),
    connectionTimeout: MAIL_TIMEOUTS.connectionMs,
    greetingTimeout: MAIL_TIMEOUTS.greetingMs,
    socketTimeout: MAIL_TIMEOUTS.socketMs,
    dnsTimeout: MAIL_TIMEOUTS.dnsMs,
    ...(test.tls ? { tls: { ...test.tls } } : {}),
    // A pool: a few connections kept open and reused (each reconnected after 100 messages), rather than a
    // connection, greeting and TLS handshake per message, which held a burst of 1,000 to about 80 e-mails
    // a second (bench:outbox). An idle connection is closed by the relay's own timeout, with its relay's
    // pool when unused for a while (mail-sender.ts), or at stop.
    pool: true,
    maxConnections: MAIL_POOL_CONNECTIONS,
    maxMessages: 100,
    // nodemailer logs nothing unless asked; said here, since its debug output would hold the message.
    logger: false,
    debug: false,
  };
}

/** A pooled transport to the relay: a connection opened at the first message and kept for the next ones. */
export function createMailTransport(relay: Pick<MailRelay, 'url'>, test: MailTransportTestOptions = {}): MailTransport {
  return nodemailer.createTransport(mailTransportOptions(relay.url, test));
}
