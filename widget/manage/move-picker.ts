import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Treatment, WebsiteSite } from '../../contract/index.js';
import type { PreferredStart } from '../../contract/bff-change-view.js';
import { clinicLocalTime } from '../../contract/rules/clinic-time.js';
import { MAX_PREFERRED_STARTS } from '../../contract/rules/bff-api.js';
import { candidateSlots } from '../../contract/rules/slots.js';
import { availability, availabilityDays, type Availability } from '../api.js';
import { autoDay, type DayPicker } from '../booking/steps/day-step.js';
import { formatDate, formatTime, localToday } from '../format.js';
import type { Translation } from '../i18n/translation.js';
import { COMPLETE, LoadTask } from '../load-task.js';
import type { WidgetContext } from '../widget-context.js';
import type { ManageTranslation } from './i18n/translation.js';

/** What the picker reads of the manage view that owns it. */
export interface MovePickerHost extends ReactiveControllerHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly context: WidgetContext;
  readonly site?: WebsiteSite;
  /** The booked treatment, for its length; undefined when the BFF does not know it. */
  readonly bookedTreatment?: Treatment;
  /** The booked dentist's id ('' for any): the wished starts are that dentist's. */
  readonly bookedDoctor: string;
  /** The manage view's own strings, once loaded. */
  readonly mt: ManageTranslation;
  /** Whether the picker shows: its slots and day counts are fetched only then. */
  readonly picking: boolean;
}

/**
 * The wished starts of a move request, picked in the booking form's own calendar and times
 * (renderDayStep): the same availability (GET /availability and /availability/days, the booked
 * dentist and treatment), the same muted days and taken times. A time chosen is added to the list,
 * in order, up to MAX_PREFERRED_STARTS; chosen again, it is removed. Each change is announced.
 *
 * It opens, as the booking form's day step does, with the first bookable day chosen and its times
 * shown (autoDay). That suits a move too: a day chosen here asks for nothing (only a time chosen is a
 * wished start, and the list starts empty), and a patient moving a booking looks first for what is
 * free soonest. Both panes are then full from the first paint, and nothing moves when the times come.
 */
export class MovePicker implements DayPicker, ReactiveController {
  /** The wished starts, most wished first. */
  starts: PreferredStart[] = [];
  cursor = '';
  timeCursor = '';
  /** What the last pick did, for the live region. */
  announcement = '';
  /** The day whose times show. */
  private day = '';
  private zone?: string;
  /** The day chosen for the patient (autoDay), until they choose a day or a time. */
  private auto = '';

  readonly slots: LoadTask<readonly [string, string, string, string], Availability | undefined>;
  readonly days: LoadTask<readonly [string, string, string, string], Map<string, number> | undefined>;

  constructor(readonly owner: MovePickerHost) {
    // Before its tasks, so that they fetch the day it chooses in the same update.
    owner.addController(this);
    this.slots = new LoadTask(owner, {
      task: async ([apiBase, date, doctor, treatment], { signal }) => (date ? availability(apiBase, date, doctor, treatment, signal) : undefined),
      // Before a day is chosen, today's, to learn the clinic's zone (as the booking flow does).
      args: () => [this.apiBase, !owner.picking ? '' : this.day || (this.zone ? '' : localToday()), owner.bookedDoctor, this.treatmentId] as const,
      onComplete: (found) => {
        if (found) this.zone = found.time_zone;
      },
    });
    this.days = new LoadTask(owner, {
      task: async ([apiBase, month, doctor, treatment], { signal }) => (month ? availabilityDays(apiBase, month, doctor, treatment, signal) : undefined),
      args: () => [this.apiBase, owner.picking ? (this.cursor || this.day || this.now().date).slice(0, 7) : '', owner.bookedDoctor, this.treatmentId] as const,
    });
  }

  /** While the picker shows: the first bookable day chosen, and one so chosen that turns out full moved on from. */
  hostUpdate(): void {
    const day = this.owner.picking && autoDay(this, this.auto);
    if (!day) return;
    // The calendar follows unless the patient has moved it; focus stays where it is.
    if (!this.day || this.cursor === this.day) this.cursor = day;
    this.day = this.auto = day;
    this.timeCursor = '';
  }

  private get apiBase(): string {
    return this.owner.context.apiBase;
  }

  private get treatmentId(): string {
    return this.owner.bookedTreatment ? String(this.owner.bookedTreatment.treatment_id) : '';
  }

  get t(): Translation {
    return this.owner.context.t;
  }

  get lang(): string {
    return this.owner.context.lang;
  }

  get host(): { readonly site?: WebsiteSite } {
    return this.owner;
  }

  get treatment(): Treatment | undefined {
    return this.owner.bookedTreatment;
  }

  /** The chosen day, and of its times the last one wished (the times' tab stop). */
  get draft(): { appointment_date: string; appointment_time: string } {
    return { appointment_date: this.day, appointment_time: this.starts.findLast((start) => start.date === this.day)?.time ?? '' };
  }

  /** The clinic's date and time now: in its zone once known, else the visitor's own clock. */
  now(): { date: string; time: string } {
    const now = new Date();
    return this.zone ? clinicLocalTime(now, this.zone) : { date: localToday(now), time: now.toTimeString().slice(0, 5) };
  }

  dayCounts(): Map<string, number> | undefined {
    return this.days.status === COMPLETE ? this.days.value : undefined;
  }

  dayStarts(): string[] {
    const now = this.now();
    const starts = candidateSlots(this.owner.site?.opening_hours ?? {}, this.day, this.treatment?.duration_minutes);
    return starts.filter((time) => this.day !== now.date || time > now.time);
  }

  isTaken(time: string): boolean {
    const known = this.slots.status === COMPLETE ? this.slots.value : undefined;
    return !!known?.slots.some((slot) => slot.time === time && slot.status === 'taken');
  }

  isPicked(time: string): boolean {
    return this.starts.some((start) => start.date === this.day && start.time === time);
  }

  /** A start in words, as its chip and the announcements say it. */
  label(start: PreferredStart): string {
    const day = formatDate(start.date, this.lang, { weekday: 'short', day: 'numeric', month: 'short' });
    return this.owner.mt.startAt(day, formatTime(start.time, this.lang));
  }

  pick(_field: 'appointment_date', day: string): void {
    this.day = this.cursor = day;
    this.auto = '';
    this.timeCursor = '';
    this.owner.requestUpdate();
  }

  /** A time of the day shown: added to the wished starts (unless they are full), or removed when it is one. */
  pickTime(time: string): void {
    const { mt } = this.owner;
    const start = { date: this.day, time };
    this.timeCursor = time;
    this.auto = '';
    if (this.isPicked(time)) this.remove(start);
    else if (this.starts.length >= MAX_PREFERRED_STARTS) this.announcement = mt.full(MAX_PREFERRED_STARTS);
    else {
      this.starts = [...this.starts, start];
      this.announcement = mt.added(this.label(start), this.starts.length, MAX_PREFERRED_STARTS);
    }
    this.owner.requestUpdate();
  }

  /** A wished start taken off the list (its chip's button, or its time chosen again). */
  remove(start: PreferredStart): void {
    this.starts = this.starts.filter((s) => s.date !== start.date || s.time !== start.time);
    this.announcement = this.owner.mt.removed(this.label(start));
    this.owner.requestUpdate();
  }

  moveCursor(day: string, byKey: boolean): void {
    this.cursor = day;
    this.owner.requestUpdate();
    if (byKey) void this.focus('[role="grid"] [tabindex="0"]');
  }

  moveTime(time: string, byKey = true): void {
    this.timeCursor = time;
    this.owner.requestUpdate();
    if (byKey) void this.focus(`.times [data-time="${time}"]`);
  }

  /** After the next render, moves focus to the view's element matching selector. */
  async focus(selector: string): Promise<void> {
    await this.owner.updateComplete;
    this.owner.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  /** Back to an empty list, the calendar on its first free day (chosen again when it shows), as the picker first opens. */
  reset(): void {
    this.starts = [];
    this.day = this.cursor = this.timeCursor = this.announcement = this.auto = '';
  }
}
