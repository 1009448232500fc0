import { html, nothing, type TemplateResult } from 'lit';
import { TaskStatus } from '@lit/task';
import { minutesOf } from '../../../contract/rules/clinic-time.js';
import { formatTime } from '../../format.js';
import type { BookingFlow } from '../booking-flow.js';

/** The time step: the chosen day's starts as buttons, those the BFF knows to be taken disabled. */
export function renderTimeStep(flow: BookingFlow): TemplateResult {
  const { t } = flow;
  if (flow.slots.status === TaskStatus.PENDING) return html`<p role="status">${t.loading}</p>`;
  const starts = flow.dayStarts();
  return html`<div class="choices slots" role="group" aria-labelledby="step-heading">${starts.map((time) => slotButton(flow, time))}</div>
    <span id="why-taken" hidden>${t.taken}</span>
    ${starts.every((time) => flow.isTaken(time)) ? html`<p>${t.noTimes}</p>` : nothing}`;
}

function slotButton(flow: BookingFlow, time: string): TemplateResult {
  const taken = flow.isTaken(time);
  return html`<button class="button secondary choice" type="button" data-time=${time} ?disabled=${taken} aria-describedby=${taken ? 'why-taken' : nothing}
    aria-pressed=${time === flow.draft.appointment_time ? 'true' : 'false'}
    @click=${() => flow.pickTime(time)}>${formatTime(time, flow.lang)}</button>`;
}

/** After a 409, in the failure message: the three open starts nearest the one refused, one click each. */
export function renderNearest(flow: BookingFlow): TemplateResult | typeof nothing {
  if (!flow.lostTime || flow.slots.status !== TaskStatus.COMPLETE) return nothing;
  const target = minutesOf(flow.lostTime);
  const nearest = flow
    .dayStarts()
    .filter((time) => !flow.isTaken(time))
    .sort((a, b) => Math.abs(minutesOf(a) - target) - Math.abs(minutesOf(b) - target))
    .slice(0, 3)
    .sort();
  return nearest.length
    ? html`<p>${flow.t.nearest}</p><div class="choices slots">${nearest.map((time) => slotButton(flow, time))}</div>`
    : nothing;
}
