import { html, nothing, type TemplateResult } from 'lit';
import { LIMITS } from '../../../contract/rules/limits.js';
import type { BookingFlow } from '../booking-flow.js';
import { consentField, emailOptIn, textArea, textField } from '../fields.js';

/**
 * The details step: name and phone (required), address and note, a confirmation by e-mail when the
 * site sends e-mail, and the consent when the page links a privacy notice. One field under another,
 * each as wide as the others (booking-form.styles.ts, .fields).
 */
export function renderDetailsStep(flow: BookingFlow): TemplateResult {
  const { t } = flow;
  const { privacyUrl } = flow.host;
  return html`<div class="fields">
    ${textField(flow, 'patient_name', t.patientName, { required: true, autocomplete: 'name', maxlength: LIMITS.patientName })}
    ${textField(flow, 'patient_phone', t.patientPhone, { required: true, autocomplete: 'tel', type: 'tel', maxlength: LIMITS.patientPhone })}
    ${textField(flow, 'address', t.patientAddress, { autocomplete: 'street-address', maxlength: LIMITS.address })}
    ${textArea(flow, 'note', t.note, LIMITS.note)}
    ${flow.host.emailOffered ? emailOptIn(flow) : nothing}
    ${privacyUrl ? consentField(flow, privacyUrl) : nothing}
  </div>`;
}
