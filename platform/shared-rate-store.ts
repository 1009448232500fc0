import { MemoryStore, type ClientRateLimitInfo, type IncrementResponse, type Options, type Store } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { RedisLink } from './redis-link.js';

/**
 * An express-rate-limit store that counts in Redis, shared by every instance,
 * while Redis is available, and in this process's memory while it is not: an
 * outage makes the limit per instance instead of failing requests or letting
 * them all through. When Redis answers again, counting resumes there, from
 * Redis's own counts: what was counted in memory meanwhile is not carried over,
 * so across the switch a client may get up to one window's budget more.
 *
 * One store per limiter (express-rate-limit refuses a shared one), each with
 * its own key prefix. The counting in Redis is rate-limit-redis's (a fixed
 * window per key, one script call per request); its scripts are loaded on first
 * use, and again after a failed load (Redis was down when the service started).
 */
export class SharedRateStore implements Store {
  /** Keys counted here are seen by the other instances too. */
  readonly localKeys = false;
  readonly prefix: string;
  private readonly memory = new MemoryStore();
  private readonly redisStore: RedisStore;
  private options?: Options;
  private scriptsLoaded?: Promise<void>;

  constructor(
    private readonly redis: RedisLink,
    prefix: string,
  ) {
    this.prefix = prefix;
    this.redisStore = new RedisStore({ prefix, sendCommand: (...args: string[]) => redis.send<RedisReply>(args) });
  }

  init(options: Options): void {
    this.options = options;
    this.memory.init(options);
  }

  increment(key: string): Promise<IncrementResponse> {
    return this.inRedisElseMemory(
      async () => {
        await this.loadScripts();
        return this.redisStore.increment(key);
      },
      () => this.memory.increment(key),
    );
  }

  /** Gives a hit back (skipFailedRequests): to Redis while it is available, else to memory. */
  decrement(key: string): Promise<void> {
    return this.inRedisElseMemory(
      () => this.redisStore.decrement(key),
      () => this.memory.decrement(key),
    );
  }

  get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return this.inRedisElseMemory(
      async () => {
        await this.loadScripts();
        return this.redisStore.get(key);
      },
      () => this.memory.get(key),
    );
  }

  /**
   * `inRedis` while Redis is available; `inMemory` while it is not, or when
   * Redis failed this request (the link logged it once): this instance counts it.
   */
  private async inRedisElseMemory<T>(inRedis: () => Promise<T>, inMemory: () => Promise<T>): Promise<T> {
    if (this.redis.available) {
      try {
        return await inRedis();
      } catch {
        // Counted below, in memory.
      }
    }
    return inMemory();
  }

  async resetKey(key: string): Promise<void> {
    await this.memory.resetKey(key);
    if (this.redis.available) await this.redisStore.resetKey(key).catch(() => undefined);
  }

  shutdown(): void {
    this.memory.shutdown();
  }

  private loadScripts(): Promise<void> {
    if (!this.options) throw new Error('SharedRateStore used before init');
    this.scriptsLoaded ??= this.redisStore.init(this.options).catch((error: unknown) => {
      this.scriptsLoaded = undefined;
      throw error;
    });
    return this.scriptsLoaded;
  }
}
