import { html, nothing, type TemplateResult } from 'lit';
import type { BookingFlow, ChoiceField } from '../booking-flow.js';

/** A choice button: its value, name and a detail line. */
export type Choice = [value: string, name: string, detail?: string];

/** The treatment or dentist step: one button per choice, the chosen one pressed (none before a choice); a click chooses and goes on. */
export function renderChoices(flow: BookingFlow, field: ChoiceField, options: Choice[]): TemplateResult {
  return html`<div class="choices" role="group" aria-labelledby="step-heading">
    ${options.map(([value, name, detail]) => html`<button class="button secondary choice" type="button" data-value=${value}
      aria-pressed=${flow.isChosen(field, value) ? 'true' : 'false'} @click=${() => flow.pick(field, value)}>
      <strong>${name}</strong>${detail ? html`<span class="muted">${detail}</span>` : nothing}</button>`)}
  </div>`;
}
