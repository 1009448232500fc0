import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { closeWhenScopeEnds, once } from '../../../support/scoped-teardown.js';

/** One message the relay took, as mailparser reads it, with how it came. */
export interface ReceivedMail {
  mail: ParsedMail;
  /** The raw message, to search for what must not be in it. */
  raw: string;
  envelope: { from: string | false; to: string[] };
  /** Whether the session was encrypted (STARTTLS or smtps) when the message came. */
  secure: boolean;
  /** The user it authenticated as, if it did. */
  user?: string;
}

export interface RelayOptions {
  host?: string;
  /** TLS from the first byte (smtps). */
  secure?: boolean;
  /** Refuses STARTTLS and does not offer it: a relay that cannot encrypt. */
  noStartTls?: boolean;
  /** Requires this user and password. */
  auth?: { user: string; pass: string };
  /** Answers MAIL FROM with this reply code, taking nothing (a relay that defers or refuses). */
  refuseWith?: number;
  /** Answers RCPT TO of these addresses with this reply code (550: no such mailbox; 451: try later). */
  refuseRecipients?: { addresses: string[]; code: number };
}

export interface TestRelay {
  host: string;
  port: number;
  /** `smtp://host:port` (or smtps), without credentials. */
  url: string;
  received: ReceivedMail[];
  /** How many sessions connected, whatever became of them. */
  connections: number;
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on an ephemeral port, with its built-in
 * self-signed certificate for STARTTLS and smtps: what a clinic's e-mail
 * meets at a relay. Each message it takes is parsed by mailparser. Closed
 * when the scope that started it ends.
 */
export async function startRelay(options: RelayOptions = {}): Promise<TestRelay> {
  const host = options.host ?? '127.0.0.1';
  const received: ReceivedMail[] = [];
  const relay = { connections: 0 };
  const settings: SMTPServerOptions = {
    // No log lines, and no warning about the built-in certificate, which is what a test relay should use.
    logger: false,
    secure: options.secure ?? false,
    disabledCommands: options.noStartTls ? ['STARTTLS'] : [],
    authOptional: !options.auth,
    allowInsecureAuth: false,
    onConnect: (_session, callback) => {
      relay.connections++;
      callback();
    },
    onAuth: (auth, _session, callback) => {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onMailFrom: (_address, _session, callback) => {
      if (options.refuseWith) callback(Object.assign(new Error('Try again later'), { responseCode: options.refuseWith }));
      else callback();
    },
    onRcptTo: (address, _session, callback) => {
      const refused = options.refuseRecipients;
      if (refused?.addresses.includes(address.address)) callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: refused.code }));
      else callback();
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (mail) => {
            received.push({
              mail,
              raw,
              envelope: { from: session.envelope.mailFrom && session.envelope.mailFrom.address, to: session.envelope.rcptTo.map((rcpt) => rcpt.address) },
              secure: session.secure,
              ...(typeof session.user === 'string' ? { user: session.user } : {}),
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  };
  const server = new SMTPServer(settings);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  const close = once(() => new Promise<void>((resolve) => server.close(() => resolve())));
  closeWhenScopeEnds(close);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    host,
    port,
    url: `${options.secure ? 'smtps' : 'smtp'}://${urlHost}:${port}`,
    received,
    get connections() {
      return relay.connections;
    },
    close,
  };
}

/** An IPv4 address of this machine other than loopback, if it has one: where STARTTLS is required. */
export function nonLoopbackAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((address) => address?.family === 'IPv4' && !address.internal)?.address;
}
