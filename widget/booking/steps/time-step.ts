import { html, nothing, type TemplateResult } from 'lit';
import { COMPLETE, PENDING } from '../../load-task.js';
import { minutesOf } from '../../../contract/rules/clinic-time.js';
import { timeFormatter } from '../../format.js';
import { forwardOf } from '../calendar.js';
import type { BookingFlow } from '../booking-flow.js';
import type { DayPicker } from './day-step.js';

/** Where the afternoon and the evening begin, in minutes of the day (12:00, 17:00). */
const PERIOD_STARTS = [12 * 60, 17 * 60];
const periodOf = (time: string) => PERIOD_STARTS.filter((start) => minutesOf(time) >= start).length;

/**
 * The chosen day's times, beside the calendar: grouped into morning,
 * afternoon and evening under a small heading each, those the BFF knows to
 * be taken disabled. All the groups are one tab stop (roving tabindex):
 * arrows move to the previous or next free time (left and right flipped
 * right to left, as the times are laid out), Home and End to the first
 * and last; Enter or Space chooses, which moves on to the details. Arrows
 * move focus only, not the choice, since choosing leaves the step.
 */
export function renderTimes(flow: DayPicker): TemplateResult | typeof nothing {
  const { t, lang } = flow;
  // Nothing until a day is chosen (its name is then in the summary above, and its button announces it).
  if (!flow.draft.appointment_date) return nothing;
  const heading = html`<h4>${t.time}</h4>`;
  if (flow.slots.status === PENDING) return html`<div class="times">${heading}<p role="status">${t.loading}</p></div>`;
  const starts = flow.dayStarts();
  const free = starts.filter((time) => !flow.isTaken(time));
  const chosen = flow.draft.appointment_time;
  const stop = [flow.timeCursor, chosen].find((time) => free.includes(time)) ?? free[0];
  const last = free.length - 1;
  const onKey = (event: KeyboardEvent) => {
    const from = free.indexOf((event.target as HTMLElement).dataset.time ?? '');
    const forward = forwardOf(event);
    const to = ({ ArrowRight: from + forward, ArrowDown: from + 1, ArrowLeft: from - forward, ArrowUp: from - 1, Home: 0, End: last } as Record<string, number>)[event.key];
    if (to === undefined || from < 0) return;
    event.preventDefault();
    flow.moveTime(free[Math.min(Math.max(to, 0), last)]!);
  };
  const format = timeFormatter(lang);
  return html`<div class="times" @keydown=${onKey}>
    ${heading}
    ${t.periods.map((name, period) => {
      const times = starts.filter((time) => periodOf(time) === period);
      return times.length
        ? html`<div role="group" aria-labelledby="period-${period}">
            <h5 id="period-${period}" class="period">${name}</h5>
            <div class="choices slots">${times.map((time) => slotButton(flow, time, format(time), time === stop ? 0 : -1))}</div>
          </div>`
        : nothing;
    })}
    <span id="why-taken" hidden>${t.taken}</span>
    ${free.length === 0 ? html`<p>${t.noTimes}</p>` : nothing}
  </div>`;
}

function slotButton(flow: DayPicker, time: string, label: string, tabindex?: number): TemplateResult {
  const taken = flow.isTaken(time);
  return html`<button class="button secondary choice" type="button" data-time=${time} ?disabled=${taken} aria-describedby=${taken ? 'why-taken' : nothing}
    tabindex=${tabindex ?? nothing} aria-pressed=${flow.isPicked(time) ? 'true' : 'false'}
    @click=${() => flow.pickTime(time)}>${label}</button>`;
}

/** After a 409, in the failure message: the three open starts nearest the one refused, one click each. */
export function renderNearest(flow: BookingFlow): TemplateResult | typeof nothing {
  if (!flow.lostTime || flow.slots.status !== COMPLETE) return nothing;
  const target = minutesOf(flow.lostTime);
  const format = timeFormatter(flow.lang);
  const nearest = flow
    .dayStarts()
    .filter((time) => !flow.isTaken(time))
    .sort((a, b) => Math.abs(minutesOf(a) - target) - Math.abs(minutesOf(b) - target))
    .slice(0, 3)
    .sort();
  return nearest.length
    ? html`<p>${flow.t.nearest}</p><div class="choices slots">${nearest.map((time) => slotButton(flow, time, format(time)))}</div>`
    : nothing;
}
