import { weekdayAhead, type E2eStack } from '../../test/e2e/support/stack.js';

/*
 * The manage view's states as the screenshot scripts take them (scripts/screenshots.ts in Chromium,
 * scripts/screenshots-other-browsers.ts in Firefox and WebKit): the page, the stubbed answers of the
 * BFF (status with `changes`, change requests) and what is clicked, over a few operations each
 * browser's driver provides, so that every browser shows the same states.
 */

/** The reference of the stubbed booking the manage view shows. */
export const MANAGE_REFERENCE = 'K7QF-2M9X-PA4T-Z3RW-8HNC';

/** A clinic's page with the widget, loaded from `bff` (the BFF, or a stub in front of it). */
export function pageHtml(bff: string, lang: string, attributes: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
    <title>clinic-booking</title><style>body { margin: 0; padding: 1rem; font-family: system-ui, sans-serif; background: #f8fafc; }</style>
    <script type="module" src="${bff}/widget/clinic-booking.js"></script></head>
    <body><clinic-booking ${attributes}></clinic-booking></body></html>`;
}

/** Days from four weekdays ahead on, each given once: each run books (or wishes) on a day of its own. */
export function freshDays(): () => string {
  const used = new Set<string>();
  return () => {
    let ahead = 4;
    while (used.has(weekdayAhead(ahead))) ahead++;
    used.add(weekdayAhead(ahead));
    return weekdayAhead(ahead);
  };
}

/** The BFF's `changes` for the stubbed booking: both actions open, nothing asked yet, unless overridden. */
export function changeView(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    cancel_requested_at: null,
    move_requested_at: null,
    move_preferred_starts: [],
    can_request_cancel: true,
    can_request_move: true,
    closed_reason: null,
    min_notice_hours: 24,
    move_offered: true,
    text: null,
    booking_page_url: null,
    ...overrides,
  };
}

export interface ManageBooking {
  date: string;
  treatmentId: number;
  doctorId: number;
}

/** The demo clinic's ids for the stubbed booking: Dental check-up with Dr Amara Okafor, on a weekday ahead. */
export async function manageBooking(stack: E2eStack): Promise<ManageBooking> {
  const content = (await (await fetch(`${stack.bff.baseUrl}/api/content`)).json()) as {
    data: { treatments: { treatment_id: number; treatment_name: string }[]; dentists: { doctor_id: number; doctor_name: string }[] };
  };
  const treatment = content.data.treatments.find((t) => t.treatment_name === 'Dental check-up');
  const dentist = content.data.dentists.find((d) => d.doctor_name === 'Dr Amara Okafor');
  if (!treatment || !dentist) throw new Error('the demo clinic has no Dental check-up with Dr Amara Okafor');
  return { date: weekdayAhead(12), treatmentId: treatment.treatment_id, doctorId: dentist.doctor_id };
}

/** The stubbed POST /api/appointments/status answer. */
export function statusAnswer(booking: ManageBooking, status: string, changes: Record<string, unknown>): object {
  return {
    success: true,
    message: 'ok',
    data: { status, name: 'Alex Example', date: booking.date, time: '10:30', treatment_id: booking.treatmentId, doctor_id: booking.doctorId, changes },
  };
}

export interface ChangeRequest {
  kind: 'cancel' | 'move';
  preferred_starts?: unknown[];
}

/** A change request taken: its answer, and what the status says from then on, as the BFF's would. */
export function takeChange(changes: Record<string, unknown>, body: ChangeRequest): { changes: Record<string, unknown>; answer: object } {
  const at = new Date().toISOString();
  return {
    changes:
      body.kind === 'cancel'
        ? { ...changes, cancel_requested_at: at, can_request_cancel: false, can_request_move: false }
        : { ...changes, move_requested_at: at, move_preferred_starts: body.preferred_starts, can_request_move: false },
    answer: { success: true, message: 'Change request taken', data: { kind: body.kind, requested_at: at, already_requested: false } },
  };
}

/** A change request refused: too many from this address; the BFF's CORS lets the widget read when to try again. */
export const REFUSAL = {
  status: 429,
  headers: { 'retry-after': '120', 'access-control-expose-headers': 'Retry-After' },
  json: { success: false, message: 'Too many requests', error_code: 'rate_limited' },
};

/** What a scene's act does in the manage view (selectors inside its shadow root), as each driver does it. */
export interface ManageOps {
  count(selector: string): Promise<number>;
  /** Clicks the nth match (0: the first) once it is there. */
  click(selector: string, nth?: number): Promise<void>;
  /** Focuses a field and sets its value, as a patient typing it would. */
  fill(selector: string, text: string): Promise<void>;
  waitFor(selector: string): Promise<void>;
  /** From now on, change requests are answered REFUSAL. */
  refuseChanges(): Promise<void>;
}

export interface ManageScene {
  n: number;
  name: string;
  status?: string;
  changes: Record<string, unknown>;
  act?: (ops: ManageOps) => Promise<void>;
}

/** The manage view's states in one language; `freshDay` gives the days the move request wishes. */
export function manageScenes(lang: string, freshDay: () => string): ManageScene[] {
  const clinicText = { en: 'Free of charge until 24 hours before.', de: 'Kostenlos bis 24 Stunden vorher.', ar: 'مجانًا حتى 24 ساعة قبل الموعد.' }[lang];
  const pickThree = async (ops: ManageOps) => {
    await ops.click('.actions button:not(.secondary)');
    const [first, second] = [freshDay(), freshDay()];
    for (const [day, count] of [[first, 2], [second, 1]] as const) {
      for (let i = 0; i < 13 && (await ops.count(`[data-date="${day}"]`)) === 0; i++) await ops.click('.month > button:last-of-type');
      await ops.click(`[data-date="${day}"]`);
      // Once the day's availability has come: while it loads, the times show inert, the taken ones not yet known.
      const free = '.times[aria-busy="false"] [data-time]:not([disabled])';
      await ops.waitFor(free);
      for (let i = 0; i < count; i++) await ops.click(free, i * 3 + 2);
    }
    await ops.fill('#message', { en: 'Mornings suit me best.', de: 'Vormittags passt es mir am besten.', ar: 'الصباح أنسب لي.' }[lang] ?? '');
  };
  const askCancel = async (ops: ManageOps) => {
    await ops.click('.actions button.secondary');
    await ops.click('.step button.danger');
  };
  return [
    { n: 1, name: 'open', changes: changeView({ text: clinicText }) },
    { n: 2, name: 'confirm-cancel', changes: changeView({}), act: (ops) => ops.click('.actions button.secondary') },
    { n: 3, name: 'move-three-starts', changes: changeView({}), act: pickThree },
    {
      n: 4,
      name: 'move-requested',
      changes: changeView({}),
      act: async (ops) => {
        await pickThree(ops);
        await ops.click('form.step button[type="submit"]');
        await ops.waitFor('.outcome li');
      },
    },
    {
      n: 5,
      name: 'cancel-requested',
      changes: changeView({}),
      act: async (ops) => {
        await askCancel(ops);
        await ops.waitFor('.outcome');
      },
    },
    {
      n: 6,
      name: 'cancelled',
      status: 'Cancelled',
      changes: changeView({ cancel_requested_at: new Date().toISOString(), can_request_cancel: false, can_request_move: false, closed_reason: 'already_cancelled' }),
      act: (ops) => ops.waitFor('a[download]'),
    },
    {
      n: 7,
      name: 'inside-window',
      changes: changeView({ can_request_cancel: false, can_request_move: false, closed_reason: 'inside_change_window', text: clinicText }),
    },
    {
      n: 8,
      name: 'refused',
      changes: changeView({}),
      act: async (ops) => {
        await ops.refuseChanges();
        await askCancel(ops);
        await ops.waitFor('#failure');
      },
    },
  ];
}
