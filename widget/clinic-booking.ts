import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { COMPLETE, ERROR } from './load-task.js';
import { ContentLoader } from './loading/content-loader.js';
import { dayNameOf } from '../contract/rules/opening-hours.js';
import type { ClinicContent } from './api.js';
import { telLink } from './booking/appointment-view.js';
import { emit, type Section } from './events.js';
import { ANALYTICS_EVENTS, pushToDataLayer } from './analytics.js';
import { localToday } from './format.js';
import { sharedStyles } from './shared.styles.js';
import { rootStyles } from './clinic-booking.styles.js';
import { themeStyle } from './theme.js';
import { publishJsonLd } from './seo/json-ld.js';
import { heroImageRule, renderFooter, renderSite } from './sections/site-section.js';
import { InstanceStyles } from './instance-styles.js';
import { siteStyles } from './sections/site-section.styles.js';
import { renderDentists, renderTreatments } from './sections/treatments-section.js';
import { isFloating, parseSections } from './sections/shown-sections.js';
import { bookFor, checkPresets, followInPageLinks, renderBooking, type BookingPresets } from './booking/booking-section.js';
import { renderStatusSection } from './status/status-section.js';
import { WidgetContextController } from './widget-context.js';
import { languageOf, loadTranslation } from './i18n/localize.js';
import { LAST_STAGE, reaches, stageAfter, type Stage } from './render-stages.js';

export type { BookedDetail, ErrorDetail, ReadyDetail, Section } from './events.js';

/**
 * A dental clinic's website content, treatments, dentists, booking form and
 * booking status in one tag, talking only to the clinic's BFF.
 *
 * @summary Clinic content and appointment booking, for any website.
 *
 * @slot - Fallback shown until the widget has rendered, and again if the clinic's
 *   system cannot be reached, or its site is suspended before the widget has its phone
 *   (e.g. `<a href="tel:…">Call to book</a>`).
 *
 * @event clinic-booking:ready - The content has rendered. Detail: `{ sections }`.
 * @event clinic-booking:booked - A booking succeeded. Cancelable: `preventDefault()` stops the
 *   `success-url` redirect. Detail: `{ reference, date, time, treatment_id, doctor_id }`;
 *   never the patient's name or phone.
 * @event clinic-booking:error - Loading, booking or a status lookup failed. Detail: `{ kind, status, code }`.
 *   With `analytics="datalayer"`, each event is also pushed to `window.dataLayer`.
 *
 * @csspart site-header - Logo and clinic name.
 * @csspart hero - The hero banner.
 * @csspart cta - The call-to-action link.
 * @csspart stats - The three figures.
 * @csspart about - The about section.
 * @csspart services - The services list.
 * @csspart team - The team list.
 * @csspart testimonials - The testimonials.
 * @csspart faqs - The questions and answers.
 * @csspart hours - The opening hours table.
 * @csspart contact - Contact details.
 * @csspart social - Social links.
 * @csspart site-footer - The footer description.
 * @csspart treatments - The treatments section.
 * @csspart treatment - One treatment card.
 * @csspart dentists - The dentists section.
 * @csspart dentist - One dentist card.
 * @csspart booking - The booking section.
 * @csspart booking-form - The booking form.
 * @csspart booking-summary - The choices made so far, from the second step on.
 * @csspart submit - The form's submit button.
 * @csspart booking-error - The message when a booking fails.
 * @csspart booking-result - The confirmation with the booking reference.
 * @csspart status - The status section.
 * @csspart status-form - The reference input and its button.
 * @csspart status-result - The status shown for a reference.
 * @csspart load-error - The message and retry button when the BFF cannot be reached.
 * @csspart open-button - The floating button in `mode="button"`.
 * @csspart dialog - The booking dialog in `mode="button"`.
 *
 * @cssprop --clinic-booking-primary - Main colour (buttons, links). Default: the clinic's theme_primary.
 * @cssprop --clinic-booking-secondary - Accent and focus ring. Default: the clinic's theme_secondary.
 * @cssprop --clinic-booking-dark - Headings and dark surfaces. Default: the clinic's theme_dark.
 * @cssprop --clinic-booking-on-primary - Text on primary buttons. Default: white, or dark when the primary colour is light.
 * @cssprop --clinic-booking-link - Links and secondary buttons. Default: the primary colour, or the dark one when the primary is too light on white.
 * @cssprop --clinic-booking-text - Body text colour. Default: #1e293b.
 * @cssprop --clinic-booking-muted - Secondary text. Default: #475569.
 * @cssprop --clinic-booking-surface - Card and form background. Default: #ffffff.
 * @cssprop --clinic-booking-border - Card borders. Default: #cbd5e1.
 * @cssprop --clinic-booking-error - Error text and borders. Default: #b91c1c.
 * @cssprop --clinic-booking-font - Font family. Default: system-ui.
 * @cssprop --clinic-booking-radius - Corner radius. Default: 0.5rem.
 * @cssprop --clinic-booking-gap - Base spacing. Default: 1rem.
 * @cssprop --clinic-booking-button-offset - Distance of the floating button (`mode="button"`) from the
 *   viewport's bottom and right edges, inside the safe areas. Default: 1rem.
 */
export class ClinicBooking extends LitElement {
  static override styles = [sharedStyles, siteStyles, rootStyles];

  // Lit's reactive properties, declared statically rather than with decorators: the decorator
  // helpers cost half a kilobyte of the widget's 25 KB budget.
  static override properties = {
    apiBase: { attribute: 'api-base' },
    sections: {},
    mode: { reflect: true },
    treatment: {},
    doctor: {},
    patientName: { attribute: 'patient-name' },
    patientPhone: { attribute: 'patient-phone' },
    successUrl: { attribute: 'success-url' },
    privacyUrl: { attribute: 'privacy-url' },
    analytics: {},
    lastReference: { state: true },
    stage: { state: true },
  };

  /** The BFF's /api base URL. Default: found from this script's URL (…/widget/clinic-booking.js -> …/api). */
  apiBase = '';
  /**
   * Which sections to show, space- or comma-separated: site treatments dentists booking status.
   * Default: all of them inline; only the booking form (the button and its dialog) with `mode="button"`.
   */
  sections = '';
  /** `inline` shows the form in place; `button` shows a floating button that opens it in a dialog. */
  mode: 'inline' | 'button' = 'inline';
  /** A treatment_id to preselect in the form. */
  treatment = '';
  /** A doctor_id to preselect in the form. */
  doctor = '';
  /** Prefills the patient's name (e.g. for a signed-in patient). */
  patientName = '';
  /** Prefills the patient's phone number. */
  patientPhone = '';
  /** Where to send the page after a booking, unless `clinic-booking:booked` is cancelled: an http(s) or relative URL. */
  successUrl = '';
  /** The clinic's privacy notice (an http(s) or relative URL); when set, the form asks for consent with a link to it. */
  privacyUrl = '';
  /**
   * `datalayer` pushes each widget event to `window.dataLayer` (`clinic_booking_ready`, `_booked`,
   * `_error`) with the events' details, never a patient's name, phone or booking reference.
   * Default: none.
   */
  analytics: '' | 'datalayer' = '';

  /** The page's presets for the form (treatment, doctor, success-url, privacy-url), checked (booking-section.ts). */
  private readonly presets: BookingPresets = {};
  private lastReference = '';
  private readonly toAnalytics = (event: Event) => {
    if (this.analytics === 'datalayer') pushToDataLayer(event);
  };

  private announcedReady = false;
  /**
   * The height the page gave this element before it was defined: its fallback content and any
   * `min-height` the page sets for `clinic-booking:not(:defined)`. The skeleton and the content hold
   * it until everything has rendered, so nothing below the widget moves. Measured in the constructor,
   * the one moment of an upgrade when `:defined` does not match yet; 0 for an element made by script.
   */
  private readonly reserved = this.isConnected ? Math.round(this.getBoundingClientRect().height) : 0;
  /** The content renders in stages (render-stages.ts), one task each, so that no task is long: how far it has come. */
  private stage?: Stage;
  private nextStage?: ReturnType<typeof setTimeout>;
  /** This widget's place among the page's widgets (1, 2, …), for unique section names. */
  private instance = 1;
  // lang is HTMLElement's own attribute, not a Lit property: observe it so a
  // page that switches language re-renders the widget.
  static override get observedAttributes(): string[] {
    return [...super.observedAttributes, 'lang'];
  }

  override attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    super.attributeChangedCallback(name, old, value);
    if (name === 'lang') this.requestUpdate();
  }

  // Declared before the content: controllers run in the order they were added,
  // so its load reads this update's apiBase, not the last one's.
  private readonly context = new WidgetContextController(this);
  /** Theme, reserved height and hero picture: a stylesheet of this element's own, never a style attribute. */
  private readonly instanceStyles = new InstanceStyles();

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const root = super.createRenderRoot();
    this.instanceStyles.adoptInto(root as ShadowRoot);
    return root;
  }

  /** The clinic's content, its busy retry and the suspended notice (loading/content-loader.ts). */
  private readonly content = new ContentLoader(this, this.context);

  override connectedCallback(): void {
    super.connectedCallback();
    // Events of the widget's inner parts (a booking, a status lookup) reach the host, composed.
    for (const name of ANALYTICS_EVENTS) this.addEventListener(name, this.toAnalytics);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const name of ANALYTICS_EVENTS) this.removeEventListener(name, this.toAnalytics);
  }

  private get shownSections(): Section[] {
    return parseSections(this.sections, this.mode);
  }

  private get floating(): boolean {
    return isFloating(this.mode, this.shownSections);
  }

  /**
   * The first render (the skeleton) in a task of its own, not in the module's evaluation, so that neither
   * is long. Until it, the element holds the reserved space by an inline min-height, then gives the
   * page's own inline value back, in the same task: no frame ever shows it without that space.
   * A language other than English waits for its pack as well (one small request, fetched alongside).
   * The min-height is set through CSSOM, which a strict CSP allows (a style attribute it refuses).
   */
  protected override async scheduleUpdate(): Promise<unknown> {
    if (this.hasUpdated) return super.scheduleUpdate();
    const own = this.style.minHeight;
    if (this.reserved && !this.floating) this.style.minHeight = `${this.reserved}px`;
    await Promise.all([new Promise((resolve) => setTimeout(resolve)), loadTranslation(languageOf(this))]);
    try {
      return super.scheduleUpdate();
    } finally {
      this.style.minHeight = own;
      // Leave no empty style="" behind on the page's element when the page had set none.
      if (this.getAttribute('style') === '') this.removeAttribute('style');
    }
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    checkPresets(this.presets, this, changed);
    if (this.content.status === COMPLETE && !this.stage) this.stage = stageAfter(undefined, this.shownSections);
  }

  protected override updated(): void {
    // schema.org JSON-LD in the page's <head>, once per page, unless no-structured-data (seo/json-ld.ts).
    if (this.content.status === COMPLETE) publishJsonLd(this, this.content.value);
    this.nameSections();
    if (this.content.status === COMPLETE && this.stage !== LAST_STAGE) {
      this.nextStage ??= setTimeout(() => {
        this.nextStage = undefined;
        this.stage = stageAfter(this.stage, this.shownSections);
      });
    }
    if (this.content.status === COMPLETE && this.stage === LAST_STAGE && !this.announcedReady) {
      this.announcedReady = true;
      emit(this, 'clinic-booking:ready', { sections: this.shownSections });
    }
  }

  override render(): TemplateResult {
    // The content once it has come, kept while it loads again; until then the skeleton, and after a
    // failure too while "Try again" loads (a failed load leaves no value).
    const { status, value } = this.content;
    return this.content.suspended || status === ERROR ? this.renderError() : value ? this.renderContent(value) : this.renderSkeleton();
  }

  private renderSkeleton(): TemplateResult {
    // The space the page reserved (none: the skeleton's own); nothing visible when only the floating button will show.
    this.instanceStyles.set(this.reserved && !this.floating ? `.skeleton{height:${this.reserved}px}` : '');
    return html`<div class="skeleton ${this.floating ? 'visually-hidden' : ''}" dir=${this.context.value.dir} aria-busy="true" role="status">
      <span class="visually-hidden">${this.context.value.t.loading}</span>
      <div class="bone tall"></div>
      <div class="bone"></div>
      <div class="bone short"></div>
    </div>`;
  }

  /**
   * The BFF cannot be reached or refused the content, with "Try again" and the page's fallback (the slot).
   * A suspended site (403 site_suspended, to any call) gives way to one line that sends the visitor to the
   * phone instead: the clinic's own when this widget has had its content, else the fallback, and no retry.
   */
  private renderError(): TemplateResult {
    const { t, dir } = this.context.value;
    const { suspended, busyFor, retry } = this.content;
    const phone = suspended && this.content.phone;
    // The default theme: the clinic's own colours came with the content that failed to load.
    this.instanceStyles.set(`.load-error{${themeStyle(undefined)}}`);
    return html`<div class="load-error" dir=${dir} role="alert" part="load-error">
      <p>${suspended ? t.suspended : busyFor === undefined ? t.loadError : t.errBusy(busyFor)}${phone ? [' ', telLink(phone)] : nothing}</p>
      ${suspended ? nothing : html`<button class="button" type="button" @click=${retry}>${t.retry}</button>`}
      ${phone ? nothing : html`<slot></slot>`}
    </div>`;
  }

  private renderContent(content: ClinicContent): TemplateResult {
    const context = this.context.value;
    const { t } = context;
    const shown = this.shownSections;
    // `||`, not `??`: an empty label (the contract allows one) falls back too, never an empty heading.
    const labels = content.site?.section_labels ?? {};
    const currency = content.organization?.currency;
    const bookable = shown.includes('booking');
    const today = dayNameOf(localToday());
    const cardContext = (field: 'treatment_id' | 'doctor_id') => ({
      ...context,
      currency,
      ...(bookable ? { onBook: (id: number) => bookFor(this, field, id) } : {}),
    });
    const { stage } = this;
    this.instance = [...document.querySelectorAll('clinic-booking')].indexOf(this) + 1;
    // Until every stage has rendered, the root holds the space the page reserved.
    const hold = stage !== LAST_STAGE && this.reserved && !this.floating ? `min-height:${this.reserved}px;` : '';
    this.instanceStyles.set(`.root{${themeStyle(content.site)}${hold}}${content.site ? heroImageRule(content.site, context.apiBase) : ''}`);
    return html`<div class="root" dir=${context.dir} @click=${(event: MouseEvent) => followInPageLinks(this, event)}
      @clinic-booking:booked=${(event: CustomEvent<{ reference: string }>) => (this.lastReference = event.detail.reference)}>
      ${this.instance > 1 ? html`<span id="cb-instance" hidden>(${this.instance})</span>` : nothing}
      ${shown.includes('site') && content.site
        ? renderSite(content.site, content.organization, context, today, shown.includes('dentists') ? content.dentists : undefined, stage)
        : nothing}
      ${reaches(stage, 'treatments') && shown.includes('treatments') && content.treatments
        ? renderTreatments(content.treatments, labels.treatments || t.treatmentsHeading, cardContext('treatment_id'))
        : nothing}
      ${reaches(stage, 'dentists') && shown.includes('dentists') && content.dentists
        ? renderDentists(content.dentists, labels.dentists || t.dentistsHeading, cardContext('doctor_id'))
        : nothing}
      ${reaches(stage, 'booking') && bookable ? renderBooking(content, context, this, this.presets, this.instance) : nothing}
      ${reaches(stage, 'status') && shown.includes('status')
        ? renderStatusSection(content, context, labels.status || t.statusHeading, this.lastReference)
        : nothing}
      ${reaches(stage, 'site-end') && shown.includes('site') && content.site ? renderFooter(content.site) : nothing}
    </div>`;
  }

  /**
   * Several widgets may show the same sections on one page: from the second on, each section's name
   * ends with the widget's number ("Treatments (2)"), so that landmark names stay unique.
   */
  private nameSections(): void {
    if (this.instance < 2) return;
    for (const section of this.renderRoot.querySelectorAll('section[aria-labelledby]')) {
      const ids = section.getAttribute('aria-labelledby')!;
      if (!ids.endsWith(' cb-instance')) section.setAttribute('aria-labelledby', `${ids} cb-instance`);
    }
  }
}

customElements.define('clinic-booking', ClinicBooking);

declare global {
  interface HTMLElementTagNameMap {
    'clinic-booking': ClinicBooking;
  }
}
