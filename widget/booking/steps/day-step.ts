import { html, type TemplateResult } from 'lit';
import { addDays } from '../../../contract/rules/clinic-time.js';
import { LIMITS } from '../../../contract/rules/limits.js';
import { dayHasSlot } from '../../../contract/rules/slots.js';
import type { WebsiteSite } from '../../../contract/index.js';
import type { LoadStatus } from '../../load-task.js';
import type { BookingFlow } from '../booking-flow.js';
import type { BookingDraft } from '../booking-rules.js';
import { renderCalendar, type DayReason } from '../calendar.js';
import { renderTimes } from './time-step.js';

/**
 * What the day step and its times read and call: the booking flow's, or those of the manage view's
 * picker of wished starts (manage/move-picker.ts), which shows the same calendar and times.
 */
export type DayPicker = Pick<
  BookingFlow,
  't' | 'lang' | 'cursor' | 'timeCursor' | 'treatment' | 'now' | 'dayCounts' | 'dayStarts' | 'isTaken' | 'isPicked' | 'moveCursor' | 'moveTime' | 'pickTime'
> & {
  readonly host: { readonly site?: WebsiteSite };
  readonly draft: Pick<BookingDraft, 'appointment_date' | 'appointment_time'>;
  readonly slots: { readonly status: LoadStatus };
  /** A day chosen in the calendar. */
  pick(field: 'appointment_date', day: string): void;
};

/** The calendar's rule (today's date and time, the last day, why a day cannot be chosen) and the first day that can be. */
function daysOf(flow: DayPicker) {
  const today = flow.now();
  const last = addDays(today.date, LIMITS.bookingHorizonDays);
  const hours = flow.host.site?.opening_hours ?? {};
  const minutes = flow.treatment?.duration_minutes;
  const counts = flow.dayCounts();
  const reason = (day: string): DayReason | undefined =>
    day < today.date ? 'past'
    : day > last ? 'too_far'
    : !dayHasSlot(hours, day) ? 'closed'
    : !dayHasSlot(hours, day, minutes) ? 'too_short'
    : day === today.date && !dayHasSlot(hours, day, minutes, today.time) ? 'past'
    // The BFF's count, when it gave one: taken, inside the notice or past its horizon.
    : counts?.get(day) === 0 ? 'full'
    : undefined;
  /** The first day from `from` on that can be chosen, within two months. */
  const first = (from: string) => {
    for (let day = from, n = 0; n < 62; day = addDays(day, 1), n++) if (!reason(day)) return day;
  };
  return { today: today.date, last, reason, first };
}

/**
 * The day to choose for the patient, if any: on the day step with no day chosen, the first that can be
 * booked, so that the calendar opens on its month with its times beside it and nothing moves when they
 * come; and when the day so chosen (`auto`, until the patient chooses a day or time) turns out not to
 * be bookable (the BFF's day counts came and say it is full, or the clinic's zone made it past), the
 * next one. Only ever forward from it, so that two months' counts can never send it back and forth.
 */
export function autoDay(flow: DayPicker, auto: string): string | undefined {
  const chosen = flow.draft.appointment_date;
  const { today, reason, first } = daysOf(flow);
  return !chosen ? first(today) : chosen === auto && reason(chosen) ? first(addDays(chosen, 1)) : undefined;
}

/**
 * The day-and-time step: a month calendar from today to the booking horizon,
 * each day that cannot be chosen muted with its reason, and the chosen day's
 * times beside it (below it in a narrow container). The calendar opens on the
 * day chosen (on entering the step, the first that can be: autoDay), else on the first day that can be.
 */
export function renderDayStep(flow: DayPicker): TemplateResult {
  const { today, last, reason, first } = daysOf(flow);
  let cursor = flow.cursor || flow.draft.appointment_date;
  if (!cursor || cursor < today || cursor > last) cursor = first(today) ?? today;
  return html`<div class="when">
    ${renderCalendar({
      cursor,
      selected: flow.draft.appointment_date,
      first: today,
      last,
      lang: flow.lang,
      t: flow.t,
      reason,
      pick: (day) => flow.pick('appointment_date', day),
      move: (day, byKey) => flow.moveCursor(day, byKey),
    })}
    ${renderTimes(flow)}
  </div>`;
}
