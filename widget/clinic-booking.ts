import { LitElement, type PropertyValues, type TemplateResult } from 'lit';
import { COMPLETE, ERROR } from './load-task.js';
import { emit, type Section } from './events.js';
import { ANALYTICS_EVENTS, pushToDataLayer } from './analytics.js';
import { sharedStyles } from './shared.styles.js';
import { rootStyles } from './clinic-booking.styles.js';
import { siteStyles } from './sections/site-section.styles.js';
import { InstanceStyles } from './instance-styles.js';
import { WidgetContextController } from './widget-context.js';
import { LAST_STAGE, stageAfter, type Stage } from './render-stages.js';
import { publishStructuredData } from './seo/structured-data.js';
import { ContentLoader } from './loading/content-loader.js';
import { renderLoadError } from './loading/load-error.js';
import { firstRenderReady, holdMinHeight, reservedHeight } from './loading/reserved-height.js';
import { renderSkeleton } from './loading/skeleton.js';
import { isFloating, parseSections } from './sections/shown-sections.js';
import { renderContent } from './sections/content-view.js';
import { nameSections, widgetNumber } from './sections/section-names.js';
import { checkPresets, type BookingPresets } from './booking/booking-section.js';
import { loadManageView, manageFragment, renderManage } from './manage/manage-entry.js';

export type { BookedDetail, ErrorDetail, ReadyDetail, Section } from './events.js';

/**
 * A dental clinic's website content, treatments, dentists, booking form and
 * booking status in one tag, talking only to the clinic's BFF. "Manage booking"
 * (on the confirmation and the status card) opens a booking's manage view, where
 * a patient asks to cancel it or for another time; so does a page opened with
 * `#clinic-booking-manage=REFERENCE`, the manage link (the reference never leaves
 * the browser in a URL).
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
 * @event clinic-booking:error - Loading, booking, a status lookup or a change request (cancel, move) failed.
 *   Detail: `{ kind, status, code }`, kind `load`, `booking`, `status` or `change`.
 *   With `analytics="datalayer"`, each event is also pushed to `window.dataLayer`, without the booking's
 *   date, time, treatment or dentist unless `analytics-details` is set, and never its reference.
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
 * @csspart booking-summary - The choices made so far, from the second step on; on the review, with the patient's details.
 * @csspart submit - The form's submit button.
 * @csspart booking-error - The message when a booking fails.
 * @csspart booking-result - The confirmation with the booking reference.
 * @csspart status - The status section.
 * @csspart status-form - The reference input and its button.
 * @csspart status-result - The status shown for a reference.
 * @csspart manage - A booking's manage view (from "Manage booking" or a manage link), in place of the
 *   booking form, or of the status lookup when the form is not shown.
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
    analyticsDetails: { attribute: 'analytics-details', type: Boolean },
    lastReference: { state: true },
    stage: { state: true },
    manage: { state: true },
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
   * `datalayer` pushes each widget event to `window.dataLayer`: `clinic_booking_ready` (sections),
   * `clinic_booking_booked` (that a booking happened, nothing of it) and `clinic_booking_error` (kind,
   * status, code); never a patient's name, phone or booking reference. Default: none.
   */
  analytics: '' | 'datalayer' = '';
  /**
   * Adds the booking's date, time, treatment_id and doctor_id to `clinic_booking_booked` in the dataLayer.
   * Off by default: for a US clinic they may be health information (docs/embedding.md, Analytics).
   */
  analyticsDetails = false;

  /** The page's presets for the form (treatment, doctor, success-url, privacy-url), checked (booking-section.ts). */
  private readonly presets: BookingPresets = {};
  private lastReference = '';
  /**
   * The booking whose manage view shows (manage/), in place of the booking form (or of the status
   * lookup); none when empty. Set by a manage link, and by openManage (manage/manage-entry.ts) for
   * "Manage booking" and the view's own way out: internal state, not an attribute.
   */
  private manage?: string;
  private readonly toAnalytics = (event: Event) => {
    if (this.analytics === 'datalayer') pushToDataLayer(event, this.analyticsDetails);
  };

  private announcedReady = false;
  /** The height the page gave this element before it was defined (reserved-height.ts). */
  private readonly reserved = reservedHeight(this);
  /** The content renders in stages (render-stages.ts), one task each, so that no task is long: how far it has come. */
  private stage?: Stage;
  private nextStage?: ReturnType<typeof setTimeout>;
  /** This widget's place among the page's widgets (1, 2, …), for unique section names (section-names.ts). */
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
    addEventListener('hashchange', this.followManageLink);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const name of ANALYTICS_EVENTS) this.removeEventListener(name, this.toAnalytics);
    removeEventListener('hashchange', this.followManageLink);
  }

  /** A manage link opened in a tab already on its page changes only the fragment: no reload, so it is followed here. */
  private readonly followManageLink = (): void => {
    if (this.showsManage()) this.manage = manageFragment() ?? this.manage;
  };

  /** Whether a manage link opens here: the widgets that show the booking form or the status lookup. */
  private showsManage(): boolean {
    return this.shownSections.some((section) => section === 'booking' || section === 'status');
  }

  private get shownSections(): Section[] {
    return parseSections(this.sections, this.mode);
  }

  /** The first render waits a task, holding the space the page reserved meanwhile (reserved-height.ts). */
  protected override async scheduleUpdate(): Promise<unknown> {
    if (this.hasUpdated) return super.scheduleUpdate();
    const giveBack = holdMinHeight(this, isFloating(this.mode, this.shownSections) ? 0 : this.reserved);
    await firstRenderReady(this);
    try {
      return super.scheduleUpdate();
    } finally {
      giveBack();
    }
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    checkPresets(this.presets, this, changed);
    // A page opened with a manage link (#clinic-booking-manage=…) opens in that booking's manage view,
    // in the first widget that shows the booking form or the status lookup.
    if (!this.hasUpdated && this.showsManage()) this.manage = manageFragment();
    if (this.manage) loadManageView().catch(() => (this.manage = undefined));
    if (this.content.status === COMPLETE && !this.stage) this.stage = stageAfter(undefined, this.shownSections);
  }

  protected override updated(): void {
    const { status, value } = this.content;
    nameSections(this.renderRoot, this.instance);
    if (status === COMPLETE && this.stage !== LAST_STAGE) {
      this.nextStage ??= setTimeout(() => {
        this.nextStage = undefined;
        this.stage = stageAfter(this.stage, this.shownSections);
      });
    }
    if (status === COMPLETE && this.stage === LAST_STAGE) {
      // schema.org JSON-LD in the page's <head>, once per page, unless no-structured-data: its part is
      // fetched once everything shows, off the first render's way (seo/structured-data.ts).
      publishStructuredData(this, value);
      if (!this.announcedReady) {
        this.announcedReady = true;
        emit(this, 'clinic-booking:ready', { sections: this.shownSections });
      }
    }
  }

  override render(): TemplateResult {
    // The content once it has come, kept while it loads again; until then the skeleton, and after a
    // failure too while "Try again" loads (a failed load leaves no value).
    const { content, instanceStyles } = this;
    const { status, value } = content;
    const context = this.context.value;
    // The height the page reserved, held until everything has rendered; none when only the floating button shows.
    const floating = isFloating(this.mode, this.shownSections);
    const held = floating ? 0 : this.reserved;
    if (content.suspended || status === ERROR) return renderLoadError(content, context, instanceStyles);
    if (!value) return renderSkeleton(context, held, floating, instanceStyles);
    const onBooked = (reference: string) => (this.lastReference = reference);
    const instance = (this.instance = widgetNumber(this));
    const manage = this.manage && renderManage(value, context, this.manage);
    return renderContent(value, context, this.shownSections, this.stage, instance, held, instanceStyles, this, this.presets, this.lastReference, onBooked, manage);
  }
}

customElements.define('clinic-booking', ClinicBooking);

declare global {
  interface HTMLElementTagNameMap {
    'clinic-booking': ClinicBooking;
  }
}
