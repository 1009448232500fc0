import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * What a booking's answer was, as `bookings_total{outcome}` counts it: a
 * small fixed set, read from the answer's status, so no label can ever hold
 * an id, a reference or patient data.
 */
export const BOOKING_OUTCOMES = ['booked', 'replayed', 'refused', 'conflict', 'rate_limited', 'unknown', 'failed'] as const;
export type BookingOutcome = (typeof BOOKING_OUTCOMES)[number];

/**
 * One service's metrics, in a registry of its own (never prom-client's global
 * one), so two apps in one process (the tests) share no series: the process
 * metrics, `http_request_duration_seconds` and `bookings_total`. A service
 * adds its own counters to `registry`.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly requestDuration: Histogram<'method' | 'route' | 'status'>;
  readonly bookings: Counter<'outcome'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.requestDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request arriving to its answer finishing, by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      // From a cached answer (well under a millisecond) to an upstream timeout.
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.bookings = new Counter({
      name: 'bookings_total',
      help: 'Booking requests by outcome: booked, replayed (an Idempotency-Key re-send), refused (400), conflict (409), rate_limited, unknown (504), failed.',
      labelNames: ['outcome'],
      registers: [this.registry],
    });
  }

  /** The outcome a booking's answer stands for. */
  static bookingOutcome(status: number, replayed: boolean): BookingOutcome {
    if (status < 300) return replayed ? 'replayed' : 'booked';
    if (status === 409) return 'conflict';
    if (status === 429) return 'rate_limited';
    if (status === 504) return 'unknown';
    if (status < 500) return 'refused';
    return 'failed';
  }
}
