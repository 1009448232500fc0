import { html, nothing, type TemplateResult } from 'lit';
import type { BookingFlow } from './booking-flow.js';
import type { DraftField } from './booking-rules.js';
import { MAX_EMAIL_ADDRESS_LENGTH } from '../../contract/rules/patterns.js';

/*
 * The form's fields: a label that says required or optional, the control bound to the draft, and its
 * error tied to it by aria-describedby. A field's error shows once it has been left or the form sent,
 * and is checked again as the patient types.
 */

type Control = HTMLInputElement | HTMLTextAreaElement;

const describedBy = (flow: BookingFlow, field: DraftField) => (flow.errors[field] ? `${field}-error` : nothing);

/** A field's label: required fields with a star (and "required" for screen readers), the others "(optional)". */
function label(flow: BookingFlow, field: DraftField, text: string, required: boolean): TemplateResult {
  const { t } = flow;
  return html`<label for=${field}>${text}
    ${required
      ? html`<span class="required" aria-hidden="true">*</span><span class="visually-hidden">(${t.requiredMark})</span>`
      : html`<span class="muted">(${t.optional})</span>`}</label>`;
}

/** A field's error, if it shows one: the text its control's aria-describedby names. */
function errorText(flow: BookingFlow, field: DraftField): TemplateResult | typeof nothing {
  const error = flow.errors[field];
  return error ? html`<p id="${field}-error" class="error">${error}</p>` : nothing;
}

/** One line of text: the patient's name, phone or address. */
export function textField(
  flow: BookingFlow,
  field: DraftField,
  text: string,
  options: { required?: boolean; type?: string; autocomplete?: string; maxlength?: number },
): TemplateResult {
  const { required = false, type = 'text' } = options;
  return html`<div class="field">
    ${label(flow, field, text, required)}
    <input id=${field} name=${field} type=${type} .value=${String(flow.draft[field])}
      ?required=${required}
      autocomplete=${options.autocomplete ?? nothing} maxlength=${options.maxlength ?? nothing}
      aria-invalid=${flow.errors[field] ? 'true' : 'false'}
      aria-describedby=${describedBy(flow, field)}
      @input=${(e: Event) => flow.setField(field, (e.target as Control).value)}
      @change=${() => flow.checkField(field)} @blur=${() => flow.checkField(field)} />
    ${errorText(flow, field)}
  </div>`;
}

/** Several lines of optional text: the note for the clinic. */
export function textArea(flow: BookingFlow, field: DraftField, text: string, maxlength: number): TemplateResult {
  return html`<div class="field">
    <label for=${field}>${text} <span class="muted">(${flow.t.optional})</span></label>
    <textarea id=${field} name=${field} maxlength=${maxlength} rows="3" .value=${String(flow.draft[field])}
      aria-invalid=${flow.errors[field] ? 'true' : 'false'}
      aria-describedby=${describedBy(flow, field)}
      @input=${(e: Event) => flow.setField(field, (e.target as Control).value)}
      @change=${() => flow.checkField(field)} @blur=${() => flow.checkField(field)}></textarea>
    ${errorText(flow, field)}
  </div>`;
}

/** A box to tick, its label beside it, on a row of its own; checked as soon as it changes. */
function checkbox(flow: BookingFlow, field: 'consent' | 'email_consent', text: unknown, required = false): TemplateResult {
  return html`<div class="field consent">
    <input id=${field} type="checkbox" .checked=${flow.draft[field]} ?required=${required}
      aria-invalid=${flow.errors[field] ? 'true' : 'false'}
      aria-describedby=${describedBy(flow, field)}
      @change=${(e: Event) => {
        flow.setField(field, (e.target as HTMLInputElement).checked);
        flow.checkField(field);
      }} />
    <label for=${field}>${text}</label>
    ${errorText(flow, field)}
  </div>`;
}

/** The consent to the clinic's privacy notice, required when the page gives one. */
export function consentField(flow: BookingFlow, privacyUrl: string): TemplateResult {
  const { t } = flow;
  return checkbox(
    flow,
    'consent',
    html`${t.privacyConsent} <a href=${privacyUrl} target="_blank" rel="noopener">${t.privacyLink}</a>
      <span class="required" aria-hidden="true">*</span>`,
    true,
  );
}

/**
 * "Send me a confirmation and a reminder by e-mail", where the site sends e-mail: the patient's own
 * choice, never ticked for them, apart from the consent. Ticked, the address is asked for beneath it.
 */
export function emailOptIn(flow: BookingFlow): TemplateResult {
  const { t } = flow;
  return html`${checkbox(flow, 'email_consent', t.emailOptIn)}
    ${flow.draft.email_consent
      ? textField(flow, 'patient_email', t.email, { required: true, type: 'email', autocomplete: 'email', maxlength: MAX_EMAIL_ADDRESS_LENGTH })
      : nothing}`;
}
