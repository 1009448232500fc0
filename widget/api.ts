import type { ErrorCode } from '../contract/errors.js';
import type { Dentist, Organization, Treatment, WebsiteSite } from '../contract/index.js';
import type { AvailabilityDaysResponse, AvailabilityResponse, BffBookingResponse, BffStatusResponse, BookingResult, BrowserBookingRequest, ContentBundleResponse, OriginCheckResponse } from '../contract/bff.js';
import { AVAILABILITY_DAYS_PATH, AVAILABILITY_PATH, BOOKING_PATH, CONTENT_BUNDLE_PATH, HONEYPOT_FIELD, normaliseReference, ORIGIN_CHECK_PATH, STATUS_LOOKUP_PATH } from '../contract/rules/bff-api.js';
import { BffError, toBffError } from './bff-error.js';

export interface ClinicContent {
  organization?: Organization;
  site?: WebsiteSite;
  treatments?: Treatment[];
  dentists?: Dentist[];
  /** What the site's BFF offers its patients (a confirmation by e-mail), whatever resources were asked for. */
  offers?: ContentBundleResponse['offers'];
}

export type Resource = Exclude<keyof ClinicContent, 'offers'>;

/** What the form sends: the spec's booking plus the honeypot, always present (empty for people). */
export type BookingRequest = BrowserBookingRequest & Record<typeof HONEYPOT_FIELD, string>;

/** The BFF's /api, from the script's own URL (…/widget/clinic-booking.js -> …/api) unless given. */
export function resolveApiBase(attribute: string | null | undefined): string {
  return (attribute || new URL('../api', import.meta.url).href).replace(/\/$/, '');
}

const JSON_TYPE = { 'content-type': 'application/json' };

// One request per URL for the whole page, however many widgets ask.
const pending = new Map<string, Promise<unknown>>();

/**
 * Told of every 403 site_suspended, whichever call got it (content, a day's times, a booking, a status
 * lookup): a CustomEvent 'suspended' whose detail is the URL called, so that each widget of that BFF
 * gives way to the notice, not only the part that asked.
 */
export const suspensions = new EventTarget();

/** A call to the BFF: its JSON answer, or a BffError for a failure (its status, code, reason and Retry-After). */
export async function request<T>(url: string, init?: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'omit', ...init });
  } catch (error) {
    throw toBffError(error);
  }
  const body = (await res.json().catch(() => undefined)) as { error_code?: string; message?: string; reason?: unknown } | undefined;
  if (!res.ok) {
    if (res.status === 403 && body?.error_code === ('site_suspended' satisfies ErrorCode)) suspensions.dispatchEvent(new CustomEvent('suspended', { detail: url }));
    const reason = typeof body?.reason === 'string' ? body.reason : undefined;
    throw new BffError(res.status, body?.error_code ?? 'unknown', body?.message ?? res.statusText, retryAfterOf(res), reason);
  }
  return body as T;
}

/** Retry-After in whole seconds (the BFF sends only digits), or undefined. */
function retryAfterOf(res: Response): number | undefined {
  const value = res.headers.get('retry-after') ?? '';
  return /^\d{1,6}$/.test(value) ? Number(value) : undefined;
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

/**
 * Loads the named resources in one request (GET /api/content), shared with every other widget on the page.
 *
 * A failure without an answer the page could read (status 0) is, on a new embed, most often the BFF
 * refusing the page's origin (CORS), which browsers report only as a network error. The BFF's CORS-open
 * GET /api/origin-check says whether it is, and if so its message (English, for the page's developer)
 * names the origin and the setting to change: logged as one console error. Asked through `shared`, so
 * once per page however many widgets fail (again only after the check itself failed); patients see
 * nothing more. The words are the BFF's: the module is held to 25 KiB as sent.
 */
export async function loadContent(apiBase: string, resources: readonly Resource[]): Promise<ClinicContent> {
  if (resources.length === 0) return {};
  const { data, offers } = await shared<ContentBundleResponse>(`${apiBase}${CONTENT_BUNDLE_PATH}`).catch((error: BffError) => {
    const check = apiBase + ORIGIN_CHECK_PATH;
    if (!error.status && !pending.has(check)) {
      shared<OriginCheckResponse>(check).then(
        (answer) => answer.data.allowed || console.error(`<clinic-booking>: ${answer.message}`),
        () => {},
      );
    }
    throw error;
  });
  return { ...Object.fromEntries(resources.map((resource) => [resource, data[resource]])), offers } as ClinicContent;
}

/** Pauses before each re-send of a booking whose outcome is unknown; a longer Retry-After, up to 10 s, wins. */
const RESEND_PAUSES_MS = [1_000, 2_000];
const MAX_RESEND_PAUSE_MS = 10_000;

/**
 * POST /api/appointments/book with an Idempotency-Key, so a retry never books
 * twice. A 504 means the clinic's system may or may not have booked it (the
 * BFF's booking_outcome_unknown, or a proxy's timeout): the same body goes
 * again with the same key, up to twice, and the server answers the first
 * booking again (Idempotent-Replayed) or books it now. Other failures are
 * thrown at once: they have an outcome.
 */
export async function book(apiBase: string, booking: BookingRequest, idempotencyKey: string): Promise<BookingResult> {
  const send = () =>
    request<BffBookingResponse>(`${apiBase}${BOOKING_PATH}`, {
      method: 'POST',
      headers: { ...JSON_TYPE, 'idempotency-key': idempotencyKey },
      body: JSON.stringify(booking),
    });
  for (const pause of RESEND_PAUSES_MS) {
    try {
      return (await send()).data;
    } catch (error) {
      const failure = toBffError(error);
      if (failure.status !== 504) throw failure;
      await new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(pause, (failure.retryAfter ?? 0) * 1000), MAX_RESEND_PAUSE_MS)));
    }
  }
  return (await send()).data;
}

/**
 * POST /api/appointments/status with `{reference}`: the booking's status, name,
 * date and time. The reference goes in the body, never in a URL, and as the
 * patient typed it once normalised (any case, with or without dashes).
 */
export async function lookUpStatus(apiBase: string, reference: string): Promise<BffStatusResponse['data']> {
  const body = await request<BffStatusResponse>(`${apiBase}${STATUS_LOOKUP_PATH}`, {
    method: 'POST',
    headers: JSON_TYPE,
    body: JSON.stringify({ reference: normaliseReference(reference) }),
  });
  return body.data;
}

export type Availability = AvailabilityResponse['data'];

/** GET /api/availability: the day's candidate slots, each open or taken as the BFF knows, and the clinic's time zone. */
export async function availability(apiBase: string, date: string, doctorId: string, treatmentId: string, signal?: AbortSignal): Promise<Availability> {
  return (await request<AvailabilityResponse>(`${apiBase}${AVAILABILITY_PATH}?${choiceQuery({ date }, doctorId, treatmentId)}`, { signal })).data;
}

/** An availability query: its own parameter, and the dentist and treatment when chosen. */
function choiceQuery(own: Record<string, string>, doctorId: string, treatmentId: string): URLSearchParams {
  const query = new URLSearchParams(own);
  if (doctorId) query.set('doctor_id', doctorId);
  if (treatmentId) query.set('treatment_id', treatmentId);
  return query;
}

/**
 * GET /api/availability/days: how many starts each day of a month has open as best known (0 when it
 * has none: closed, past, inside the notice, beyond the horizon or full), for the treatment's length
 * and the dentist, or any dentist.
 */
export async function availabilityDays(apiBase: string, month: string, doctorId: string, treatmentId: string, signal?: AbortSignal): Promise<Map<string, number>> {
  const { data } = await request<AvailabilityDaysResponse>(`${apiBase}${AVAILABILITY_DAYS_PATH}?${choiceQuery({ month }, doctorId, treatmentId)}`, { signal });
  return new Map(data.days.map((day) => [day.date, day.open]));
}
