import { createClient, ErrorReply } from '@redis/client';
import type { Logger } from 'pino';
import { DEFAULT_REDIS_KEY_PREFIX, type CoreConfig } from './config.js';
import { inClientSpan } from './tracing/client-spans.js';

/** How long a command may take before Redis counts as down: it answers in well under a millisecond nearby. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** How long opening a connection may take, at start-up and on each reconnection. */
export const REDIS_CONNECT_TIMEOUT_MS = 2000;
/** While Redis is counted down on an open connection (it stopped answering), how often it is pinged. */
export const REDIS_PROBE_INTERVAL_MS = 1000;

/** A command Redis did not answer within REDIS_COMMAND_TIMEOUT_MS. */
export class RedisTimeout extends Error {
  constructor() {
    super(`Redis did not answer within ${REDIS_COMMAND_TIMEOUT_MS} ms`);
    this.name = 'RedisTimeout';
  }
}

/**
 * The command's answer, or RedisTimeout. node-redis's own command timeout
 * only covers the wait before a command is written, never the wait for its
 * reply, so a Redis that stopped answering would hold the request forever.
 * A reply that comes late is dropped.
 *
 * The verdict waits for the I/O of the turn in which the timer fires: when
 * this process itself was busy past the deadline (a long synchronous task, a
 * starved CPU), the reply that arrived meanwhile is read first and wins, so
 * Redis is not counted down for this process's own stall. Timers run before
 * the poll phase reads sockets; setImmediate runs after it.
 */
function answerWithin<T>(reply: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let verdict: NodeJS.Immediate | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      verdict = setImmediate(() => reject(new RedisTimeout()));
    }, REDIS_COMMAND_TIMEOUT_MS);
  });
  return Promise.race([reply, timeout]).finally(() => {
    clearTimeout(timer);
    clearImmediate(verdict);
  });
}

/** A command not sent because Redis is counted down: the caller uses its in-memory fallback. */
export class RedisUnavailable extends Error {
  constructor() {
    super('Redis is unavailable');
    this.name = 'RedisUnavailable';
  }
}

export interface RedisLinkOptions {
  logger: Logger;
  /** What every key of this deployment starts with (REDIS_KEY_PREFIX). */
  keyPrefix: string;
}

/**
 * One connection to the Redis that the instances of a service share (REDIS_URL),
 * and whether it can be used right now. Everything kept there has an in-memory
 * fallback, so an outage never fails a request: while Redis is down (refused,
 * closed, or no answer within REDIS_COMMAND_TIMEOUT_MS) `available` is false,
 * commands are refused at once (never queued: a request must not wait for a
 * reconnection), and each instance counts on its own. ONE warning is logged when
 * an outage begins and one line when it ends, however many requests meet it.
 * The client reconnects by itself (backing off to 2 s); a Redis that stopped
 * answering on an open connection is pinged every REDIS_PROBE_INTERVAL_MS.
 * The URL is never logged (it may hold a password): only its host and port.
 */
export class RedisLink {
  readonly keyPrefix: string;
  /** host:port, for log lines. */
  readonly where: string;
  private readonly client: ReturnType<typeof createClient>;
  private readonly logger: Logger;
  private up = false;
  /** True from the first failure of an outage until Redis answers again: the warning is logged once. */
  private down = false;
  private probe?: NodeJS.Timeout;
  private closed = false;
  private readonly settled: Promise<void>;

  private constructor(url: string, { logger, keyPrefix }: RedisLinkOptions) {
    this.logger = logger;
    this.keyPrefix = keyPrefix;
    const { hostname, port } = new URL(url);
    this.where = `${hostname}:${port || '6379'}`;
    this.client = createClient({
      url,
      disableOfflineQueue: true,
      socket: { connectTimeout: REDIS_CONNECT_TIMEOUT_MS },
    });
    let settle!: () => void;
    this.settled = new Promise((resolve) => (settle = resolve));
    // Both events can fire many times; only the changes between up and down are reported.
    this.client.on('ready', () => {
      this.markUp();
      settle();
    });
    this.client.on('error', (error: unknown) => {
      this.markDown(error);
      settle();
    });
    // connect() settles only once connected, or when closed; the events above say what happens meanwhile.
    this.client.connect().catch(() => undefined);
  }

  /**
   * Connects to REDIS_URL. Resolves once the first attempt has settled: connected,
   * or failed with its one warning logged (the service then starts on in-memory
   * counts and switches to Redis when it answers), so no request is counted
   * before the link knows which.
   */
  static async open(url: string, options: RedisLinkOptions): Promise<RedisLink> {
    const link = new RedisLink(url, options);
    await link.settled;
    return link;
  }

  /** Whether Redis is to be used now; when false, use the in-memory fallback. */
  get available(): boolean {
    return this.up;
  }

  /**
   * Sends one command. Throws RedisUnavailable at once while Redis is down. A
   * command that fails for want of Redis (closed, refused, timed out) counts it
   * down; an error reply (such as NOSCRIPT) is the caller's to handle and says
   * nothing about the link.
   */
  async send<T>(args: string[]): Promise<T> {
    if (!this.up) throw new RedisUnavailable();
    try {
      return await inClientSpan(commandOf(args), () => redisAttributes(args), () => answerWithin(this.client.sendCommand<T>(args)));
    } catch (error) {
      if (!(error instanceof ErrorReply)) this.markDown(error);
      throw error;
    }
  }

  /**
   * send(), or `fallback` when Redis is counted down or this command failed
   * (the link logs an outage once): for callers that have an answer of their
   * own in memory and never fail a request for Redis.
   */
  async sendOr<T, F>(args: string[], fallback: F): Promise<T | F> {
    if (!this.up) return fallback;
    return this.send<T>(args).catch(() => fallback);
  }

  /**
   * Listens on a pub/sub channel (under this link's key prefix: pass the whole
   * name) through a connection of its own, as Redis requires of a subscriber.
   * Best effort: while Redis is down nothing arrives, and the connection
   * resubscribes by itself when Redis is back, so a caller that must not miss a
   * change also polls. Resolves once the first attempt settled; the function
   * it returns closes the subscription.
   */
  async subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    const subscriber = this.client.duplicate();
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    // Its outages are the main link's to report; an unhandled 'error' would end the process.
    subscriber.on('error', () => settle());
    // Subscribed once on the first connection; node-redis subscribes again after each reconnection itself.
    let subscribed = false;
    subscriber.on('ready', () => {
      if (subscribed) return;
      subscribed = true;
      subscriber.subscribe(channel, (message) => onMessage(message)).then(settle, () => {
        subscribed = false;
        settle();
      });
    });
    // connect() settles only once connected, or when closed; the events above say what happens meanwhile.
    subscriber.connect().catch(() => undefined);
    await settled;
    return async () => {
      if (subscriber.isReady) await answerWithin(subscriber.close()).catch(() => subscriber.destroy());
      else subscriber.destroy();
    };
  }

  /** Closes the connection (on shutdown, after the last request). */
  async close(): Promise<void> {
    this.closed = true;
    this.up = false;
    clearInterval(this.probe);
    // close() waits for the replies still due, which a silent Redis never sends.
    if (this.client.isReady) await answerWithin(this.client.close()).catch(() => this.client.destroy());
    else this.client.destroy();
  }

  private markUp(): void {
    if (this.closed) return;
    clearInterval(this.probe);
    this.probe = undefined;
    this.up = true;
    if (this.down) {
      this.down = false;
      this.logger.info({ redis: this.where }, 'Redis answers again: what instances share (rate limits; in the BFF also taken slots and booking keys) is shared again');
    } else {
      this.logger.info({ redis: this.where }, 'Redis connected: rate limits (in the BFF also taken slots and booking keys) are shared across instances');
    }
  }

  private markDown(error: unknown): void {
    if (this.closed) return;
    this.up = false;
    if (!this.down) {
      this.down = true;
      this.logger.warn(
        { redis: this.where, reason: error instanceof Error ? error.message : String(error) },
        'Redis unavailable: rate limits (in the BFF also taken slots and booking keys) are kept per instance, in memory, until it answers again',
      );
    }
    // Reconnections bring 'ready' by themselves; a Redis silent on an open connection does not, so ask it.
    this.probe ??= setInterval(() => {
      if (this.client.isReady) {
        answerWithin(this.client.sendCommand(['PING'])).then(
          () => this.markUp(),
          () => undefined,
        );
      }
    }, REDIS_PROBE_INTERVAL_MS).unref();
  }
}

/** A command's name, all its span says of it: its keys and arguments may name what is kept. */
const commandOf = (args: string[]): string => (args[0] ?? '').toUpperCase();

const redisAttributes = (args: string[]) => ({ 'db.system': 'redis', 'db.operation': commandOf(args) });

/**
 * The service's Redis (REDIS_URL, keys under REDIS_KEY_PREFIX), once its first
 * connection attempt has settled; undefined when REDIS_URL is unset, and the
 * service keeps everything in memory as a single instance would.
 */
export async function openRedis(config: Pick<CoreConfig, 'redisUrl' | 'redisKeyPrefix'>, logger: Logger): Promise<RedisLink | undefined> {
  if (!config.redisUrl) return undefined;
  return RedisLink.open(config.redisUrl, { logger, keyPrefix: config.redisKeyPrefix ?? DEFAULT_REDIS_KEY_PREFIX });
}
