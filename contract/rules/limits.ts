/**
 * Maximum sizes of request fields and bodies. The spec (part 8) leaves them
 * "not shown"; these are this implementation's documented choices, also
 * published in the OpenAPI document through the schemas that use them.
 */
export const LIMITS = {
  requestBodyBytes: 16 * 1024,
  patientName: 100,
  patientPhone: 32,
  address: 300,
  note: 1000,
  idempotencyKey: 255,
  shortText: 200,
  longText: 5000,
  html: 20_000,
  url: 2048,
  /** How far ahead a booking may be made, in days. */
  bookingHorizonDays: 365,
} as const;
