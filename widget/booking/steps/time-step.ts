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
 * The chosen day's times, beside the calendar: morning, afternoon and evening, each a header button
 * with its count of free times (aria-expanded) over one list, of which one shows at a time: the
 * period of the times' tab stop (the chosen time, else the first free). So every time is reached
 * without a box that scrolls, and the step stays short on a phone; a period with none free shows 0
 * and stays closed. Those the BFF knows to be taken are disabled. The open period's times are one
 * tab stop (roving tabindex): arrows move to its previous or next free time (left and right flipped
 * right to left, as the times are laid out), Home and End to its first and last; Enter or Space
 * chooses, which moves on to the details. Arrows move focus only, not the choice, since choosing
 * leaves the step. While the day's slots load, the same headers and times show, inert, so that
 * nothing moves when they come.
 */
export function renderTimes(flow: DayPicker): TemplateResult | typeof nothing {
  const { t, lang } = flow;
  // Nothing until a day is chosen (its name is then in the summary above, and its button announces it).
  if (!flow.draft.appointment_date) return nothing;
  const pending = flow.slots.status === PENDING;
  const starts = flow.dayStarts();
  const free = starts.filter((time) => !flow.isTaken(time));
  const stop = [flow.timeCursor, flow.draft.appointment_time].find((time) => free.includes(time)) ?? free[0];
  const open = stop ? periodOf(stop) : -1;
  const freeIn = (period: number) => free.filter((time) => periodOf(time) === period);
  const shown = freeIn(open);
  const last = shown.length - 1;
  const onKey = (event: KeyboardEvent) => {
    const from = shown.indexOf((event.target as HTMLElement).dataset.time ?? '');
    const forward = forwardOf(event);
    const to = ({ ArrowRight: from + forward, ArrowDown: from + 1, ArrowLeft: from - forward, ArrowUp: from - 1, Home: 0, End: last } as Record<string, number>)[event.key];
    if (to === undefined || from < 0) return;
    event.preventDefault();
    flow.moveTime(shown[Math.min(Math.max(to, 0), last)]!);
  };
  const format = timeFormatter(lang);
  return html`<div class="times" aria-busy=${pending} @keydown=${onKey}>
    <h4 class="visually-hidden">${t.time}</h4>
    <div class="periods">
      ${t.periods.map((name, period) => {
        const count = freeIn(period).length;
        // A header opens its period by moving the tab stop to its first free time; focus stays on it.
        return html`<button class="button secondary" type="button" id="period-${period}" aria-controls="slots" aria-expanded=${period === open}
          ?disabled=${!count} @click=${() => flow.moveTime(freeIn(period)[0]!, false)}>${name} <small>${pending ? '…' : t.free(count)}</small></button>`;
      })}
    </div>
    ${open < 0
      ? html`<p>${t.noTimes}</p>`
      : html`<div id="slots" class="choices slots" role="group" aria-labelledby="period-${open}" ?inert=${pending}>
          ${starts.filter((time) => periodOf(time) === open).map((time) => slotButton(flow, time, format(time), time === stop ? 0 : -1))}
        </div>`}
    <span id="why-taken" hidden>${t.taken}</span>
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
