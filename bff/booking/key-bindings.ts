import { createHash, createHmac } from 'node:crypto';
import type { LRUCache } from 'lru-cache';
import type { BookAppointmentRequest } from '../../contract/index.js';
import { HONEYPOT_FIELD } from '../../contract/bff.js';
import { canonicalJson } from '../../platform/canonical-json.js';
import { systemClock, type Clock } from '../../platform/clock.js';
import type { RedisLink } from '../../platform/redis-link.js';
import { KEY_MEMORY_TTL_MS, patientKeyCache } from './dentist-memory.js';

/**
 * What a patient's Idempotency-Key is bound to in the BFF: the fingerprint
 * of the first body sent upstream under it, and whether upstream accepted
 * that booking (200) or may have (504).
 */
export interface KeyBinding {
  fingerprint: string;
  accepted: boolean;
}

/**
 * The fingerprint of a booking under a patient's key: an HMAC of the parsed
 * booking (canonicalJson, the honeypot left out), keyed by the patient's key
 * itself. Two bodies compare as the server compares them (after parsing: key
 * order, spacing and trimmed whitespace do not matter). Keyed by the patient's
 * key, which is random and which the BFF keeps only as a hash, so whoever
 * reads its memory or Redis cannot test a guessed name and phone against the
 * fingerprint, as they could against a plain hash of the body.
 */
export function bodyFingerprint(patientKey: string, booking: BookAppointmentRequest): string {
  const { [HONEYPOT_FIELD]: _honeypot, ...fields } = booking as BookAppointmentRequest & { [HONEYPOT_FIELD]?: unknown };
  return createHmac('sha256', patientKey).update(canonicalJson(fields)).digest('base64url');
}

/**
 * Each patient key's binding, for upstream's replay window: a key is bound to
 * the first body the BFF sends upstream under it, so that another body under
 * the same key is refused as the server refuses it (422), though upstream
 * never sees the key itself ("any dentist" sends derived keys); and a re-send
 * is waived from the notice only when it is the accepted body. In memory per
 * process (MemoryKeyBindings), or shared by every BFF of the site through
 * Redis (SharedKeyBindings, REDIS_URL).
 */
export interface KeyBindings {
  /** The key's binding, if it has one. */
  bindingOf(patientKey: string): Promise<KeyBinding | undefined>;
  /** Binds the key to `fingerprint` unless it is bound already; answers the binding it has then, the earlier one if any. */
  bind(patientKey: string, fingerprint: string): Promise<KeyBinding>;
  /** Marks the key's body as accepted upstream, or maybe accepted (504). */
  accept(patientKey: string, fingerprint: string): Promise<void>;
}

/** KeyBindings in this process's memory (patientKeyCache): the least recently used forgotten first. */
export class MemoryKeyBindings implements KeyBindings {
  private readonly bindings: LRUCache<string, KeyBinding>;

  constructor(clock: Clock = systemClock) {
    this.bindings = patientKeyCache<KeyBinding>(clock);
  }

  bindingOf(patientKey: string): Promise<KeyBinding | undefined> {
    return Promise.resolve(this.bindings.get(patientKey));
  }

  bind(patientKey: string, fingerprint: string): Promise<KeyBinding> {
    const bound = this.bindings.get(patientKey);
    if (bound) return Promise.resolve(bound);
    const binding = { fingerprint, accepted: false };
    this.bindings.set(patientKey, binding);
    return Promise.resolve(binding);
  }

  /** Also what a shared binding learnt from Redis is copied here with, so an outage later still finds it. */
  keep(patientKey: string, binding: KeyBinding): void {
    this.bindings.set(patientKey, binding, { noUpdateTTL: true });
  }

  accept(patientKey: string, fingerprint: string): Promise<void> {
    this.keep(patientKey, { fingerprint, accepted: true });
    return Promise.resolve();
  }
}

/** How a binding is written in Redis: `sent.<fingerprint>` or `accepted.<fingerprint>`. */
const encode = ({ fingerprint, accepted }: KeyBinding) => `${accepted ? 'accepted' : 'sent'}.${fingerprint}`;
function decode(stored: string | null): KeyBinding | undefined {
  const match = stored === null ? null : /^(sent|accepted)\.([A-Za-z0-9_-]{43})$/.exec(stored);
  return match ? { fingerprint: match[2]!, accepted: match[1] === 'accepted' } : undefined;
}

/**
 * KeyBindings shared by every BFF of the site through Redis (REDIS_URL): one
 * key per patient key, named by its SHA-256 and holding only the fingerprint
 * and whether it was accepted, expiring after KEY_MEMORY_TTL_MS. The first
 * body is claimed with SET NX, so two BFFs sent two bodies under one key at
 * once bind it to one of them. Like SharedDentistMemory, this BFF keeps what
 * it learnt in its own memory too: while Redis is down (its one warning
 * logged by the link), the bindings this BFF made or saw still hold.
 */
export class SharedKeyBindings implements KeyBindings {
  constructor(
    private readonly redis: RedisLink,
    /** This site's namespace for patient keys, e.g. `clinic-booking:bff:<site>:key-body:`. */
    private readonly keyPrefix: string,
    private readonly local: MemoryKeyBindings,
  ) {}

  async bindingOf(patientKey: string): Promise<KeyBinding | undefined> {
    const stored = decode(await this.redis.sendOr<string | null, null>(['GET', this.keyOf(patientKey)], null));
    return stored ?? this.local.bindingOf(patientKey);
  }

  async bind(patientKey: string, fingerprint: string): Promise<KeyBinding> {
    const wanted: KeyBinding = { fingerprint, accepted: false };
    const set = await this.redis.sendOr<string | null, undefined>(['SET', this.keyOf(patientKey), encode(wanted), 'NX', 'PX', String(KEY_MEMORY_TTL_MS)], undefined);
    // Redis down: this BFF's own memory decides.
    if (set === undefined) return this.local.bind(patientKey, fingerprint);
    const bound = set === 'OK' ? wanted : ((await this.bindingOf(patientKey)) ?? wanted);
    this.local.keep(patientKey, bound);
    return bound;
  }

  async accept(patientKey: string, fingerprint: string): Promise<void> {
    await this.local.accept(patientKey, fingerprint);
    await this.redis.sendOr(['SET', this.keyOf(patientKey), encode({ fingerprint, accepted: true }), 'PX', String(KEY_MEMORY_TTL_MS)], undefined);
  }

  private keyOf(patientKey: string): string {
    return `${this.keyPrefix}${createHash('sha256').update(patientKey).digest('base64url')}`;
  }
}
