import { systemClock, type Clock } from '../../platform/clock.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { UpstreamBusy } from '../upstream/errors.js';

export interface ReadinessOptions {
  /** One upstream call with this BFF's credentials; resolves when upstream answers it. */
  probe: () => Promise<unknown>;
  clock?: Clock;
  /** An upstream answer this recent means ready, without a probe. */
  windowMs?: number;
  /** At most one probe per this much time; the last probe's outcome is reused in between. */
  probeEveryMs?: number;
}

/**
 * Whether upstream answers this BFF: ready while it has answered within
 * `windowMs` (any ordinary call counts), otherwise whatever a fresh probe
 * says. One probe at a time, shared by concurrent checks, and at most one
 * every `probeEveryMs`, so a load balancer polling /readyz adds at most one
 * upstream call per `probeEveryMs` (12 a minute by default).
 */
export class Readiness {
  private lastAnsweredAt = -Infinity;
  private lastProbe: { at: number; ready: boolean } | undefined;
  private inFlight: Promise<boolean> | undefined;
  private readonly probe: () => Promise<unknown>;
  private readonly windowMs: number;
  private readonly probeEveryMs: number;
  private readonly now: () => number;

  constructor({ probe, clock = systemClock, windowMs = 30_000, probeEveryMs = 5_000 }: ReadinessOptions) {
    this.probe = probe;
    this.windowMs = windowMs;
    this.probeEveryMs = probeEveryMs;
    this.now = () => clock.now().getTime();
  }

  /** Upstream has just answered a call. */
  answered(): void {
    this.lastAnsweredAt = this.now();
  }

  isReady(): Promise<boolean> {
    const now = this.now();
    if (now - this.lastAnsweredAt <= this.windowMs) return Promise.resolve(true);
    if (this.inFlight) return this.inFlight;
    if (this.lastProbe && now - this.lastProbe.at < this.probeEveryMs) return Promise.resolve(this.lastProbe.ready);
    this.inFlight = this.probe()
      .then(
        () => {
          this.answered();
          return true;
        },
        // A busy upstream (429) answered: it is up, only this key's rate is spent for now.
        (error: unknown) => {
          if (!(error instanceof UpstreamBusy)) return false;
          this.answered();
          return true;
        },
      )
      .then((ready) => {
        this.lastProbe = { at: now, ready };
        this.inFlight = undefined;
        return ready;
      });
    return this.inFlight;
  }
}

/**
 * The same client, telling `readiness` of every answer upstream gives it. A
 * 5xx, a timeout, an unreachable upstream or a refused token throw, so only
 * real answers (a 200, a 404, a booking refused by a rule, a 429 busy) count.
 */
export function reportingAnswers(client: UpstreamClient, readiness: Readiness): UpstreamClient {
  // Everything else of the client is its own: only call is wrapped.
  const reporting = Object.create(client) as UpstreamClient;
  reporting.call = async (...args) => {
    try {
      const answer = await client.call(...args);
      readiness.answered();
      return answer;
    } catch (error) {
      if (error instanceof UpstreamBusy) readiness.answered();
      throw error;
    }
  };
  return reporting;
}

/** The probe: an ordinary authenticated read, so a token must be obtainable and accepted too. */
export const upstreamProbe = (client: UpstreamClient) => () => client.call({ method: 'GET', path: '/organization' });
