import type {
  AppointmentStatusView,
  BookAppointmentInput,
  Dentist,
  Organization,
  Treatment,
  WebsiteSite,
} from '../contract/index.js';

/** What the BFF answers to a booking (the spec's answer plus an opaque reference). */
export interface BookingResult {
  appointment_id: number;
  reference: string;
}

export interface ClinicContent {
  organization?: Organization;
  site?: WebsiteSite;
  treatments?: Treatment[];
  dentists?: Dentist[];
}

export type Resource = keyof ClinicContent;

const PATHS: Record<Resource, string> = {
  organization: '/organization',
  site: '/website',
  treatments: '/treatments',
  dentists: '/dentists',
};

/** A failed call to the BFF: `status` 0 and code 'network' when it could not be reached. */
export class BffError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The BFF's /api, from the script's own URL (…/widget/clinic-booking.js -> …/api) unless given. */
export function resolveApiBase(attribute: string | null | undefined): string {
  return (attribute || new URL('../api', import.meta.url).href).replace(/\/$/, '');
}

// One request per URL for the whole page, however many widgets ask.
const pending = new Map<string, Promise<unknown>>();

async function request<T>(url: string, init?: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'omit', ...init });
  } catch {
    throw new BffError(0, 'network', 'network');
  }
  const body = (await res.json().catch(() => undefined)) as { error_code?: string; message?: string } | undefined;
  if (!res.ok) throw new BffError(res.status, body?.error_code ?? 'unknown', body?.message ?? res.statusText);
  return body as T;
}

function shared<T>(url: string): Promise<T> {
  let promise = pending.get(url) as Promise<T> | undefined;
  if (!promise) {
    promise = request<T>(url);
    // A failure is forgotten so that "Try again" asks the BFF again.
    promise.catch(() => pending.delete(url));
    pending.set(url, promise);
  }
  return promise;
}

/** Loads the named resources, sharing each request with every other widget on the page. */
export async function loadContent(apiBase: string, resources: readonly Resource[]): Promise<ClinicContent> {
  const entries = await Promise.all(
    resources.map(async (resource) => {
      const body = await shared<{ data?: unknown; site?: unknown }>(`${apiBase}${PATHS[resource]}`);
      return [resource, resource === 'site' ? body.site : body.data] as const;
    }),
  );
  return Object.fromEntries(entries) as ClinicContent;
}

/** POST /api/appointments/book with an Idempotency-Key, so a retry never books twice. */
export async function book(apiBase: string, booking: BookAppointmentInput & { website: string }, idempotencyKey: string) {
  const body = await request<{ message: string; data: BookingResult }>(`${apiBase}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify(booking),
  });
  return body.data;
}

export async function lookUpStatus(apiBase: string, reference: string): Promise<AppointmentStatusView> {
  const body = await request<{ data: AppointmentStatusView }>(
    `${apiBase}/appointments/status/${encodeURIComponent(reference)}`,
  );
  return body.data;
}
