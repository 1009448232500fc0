import type { AppointmentStatusView, BookAppointmentRequest } from '../../contract/index.js';
import { ApiError } from '../../contract/errors.js';
import { BookingRefused } from '../../contract/bff.js';
import type { ChangeView, PreferredStart } from '../../contract/bff-change-view.js';
import type { RefusalReason } from '../../contract/rules/bff-api.js';
import type { BookingRules } from '../../contract/rules/booking-rules.js';
import { clinicNow } from '../../contract/rules/clinic-now.js';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { BookingFacts } from '../booking/booking-facts.js';
import { wholeStartRefusalOf } from '../booking/booking-refused.js';
import { forgetAt } from '../booking/forget-after-visit.js';
import { DENTISTS, TREATMENTS, WEBSITE, type ContentResource } from '../content/resources.js';
import type { NotificationEvent } from '../notifications/notification-event.js';
import type { SiteNotifications } from '../notifications/notification-settings.js';
import { changeRefusal, changeViewOf, type BookingState, type ChangeKind } from './change-rules.js';
import type { BookingRecord, ChangeRequestTaken, ChangeStore } from './change-store.js';
import { clinicMessages } from './clinic-messages.js';
import { offersPatientMail } from '../sites/site-settings.js';
import type { PatientMailEvent } from '../patient-mail/patient-mail-event.js';
import { patientMessages, unsubscribeToken, type PatientMailWish } from '../patient-mail/patient-messages.js';
import type { PATIENT_LANGUAGES } from '../../contract/bff.js';
import { databaseErrorOf } from './database-error.js';

/**
 * How long a booking's answer, or a status lookup's, waits for the database
 * at most: past it the booking is answered as booked and the status without
 * `changes`, as on a failure (the write itself goes on, and commits or not
 * whole). A database that stops answering (a lost PostgreSQL host, a SQLite
 * file another process holds locked) must not hold a patient's answer.
 */
export const DATABASE_WAIT_MS = 2000;

/** `work`, or a rejection once DATABASE_WAIT_MS have passed without it settling. */
async function withinWait<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseTooSlow()), DATABASE_WAIT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The database did not answer within DATABASE_WAIT_MS. */
class DatabaseTooSlow extends Error {
  override readonly name = 'DatabaseTooSlow';
  constructor() {
    super(`the database did not answer within ${DATABASE_WAIT_MS} ms`);
  }
}

/** What a patient is told when the database fails a change request: nothing was taken. */
const NOT_TAKEN = 'The request could not be taken just now; please try again shortly, or call the clinic';

export interface ChangeRequestsOptions {
  /**
   * The BFF's own database (main.ts always opens one). Absent, as in tests
   * that build a BFF without one: bookings are recorded nowhere, status views
   * carry no `changes`, and a change request is 503, rather than taken into a
   * database that nobody delivers from or keeps.
   */
  store?: ChangeStore;
  siteId: string;
  /** The clinic's IANA zone: what the change window and the wished starts are read in. */
  timeZone: string;
  /** The site's notice, horizon and default length: what a wished start meets, as a booking's. */
  bookingRules: BookingRules;
  /** The site's channels and change rules. */
  notifications: SiteNotifications;
  /** The opening hours, treatments and dentists, read as a booking reads them (never through the read budget). */
  facts: BookingFacts;
  clock: Clock;
  /** The site's: failures of the database are logged here, by class and code only (databaseErrorOf). */
  logger: Logger;
  /**
   * Whether a page may be a manage link's (the site's allowed origins and
   * PUBLIC_ORIGIN): the page a patient booked on, when no BOOKING_PAGE_URL is set.
   */
  pageAllowed?: (pageUrl: string) => boolean;
  /** PUBLIC_ORIGIN: without it no patient e-mail is sent, as its unsubscribe link could not be made. */
  publicOrigin?: string;
}

/** A patient's ask for e-mail about the booking, as the booking body carried it (validated by the contract). */
export interface PatientMailAsked {
  email: string;
  language?: (typeof PATIENT_LANGUAGES)[number];
  /** The page booked on. */
  pageUrl?: string;
}

/** What an event names of an appointment beside its date and time. */
type AppointmentNames = Omit<NotificationEvent['appointment'], 'date' | 'time'>;

/** A booking upstream just booked, as the booking route knows it. */
export interface BookingMade {
  appointmentId: number;
  /** The reference the patient was given for it. */
  reference: string;
  booking: BookAppointmentRequest;
  /** The dentist booked (the one "any dentist" chose included); null without one. */
  doctorId: number | null;
  /** Upstream replayed it (an Idempotency-Key re-send): a booking made before, not a new one. */
  replayed: boolean;
  /** The patient asked for a confirmation and a reminder by e-mail (and ticked the consent). */
  patientMail?: PatientMailAsked;
}

/** A change request as the route read it: its body, and the booking it is for. */
export interface ChangeAsked {
  appointmentId: number;
  /** The patient's reference, in the form it was issued (formatReference): what staff are told. */
  reference: string;
  /** The booking's status view, as upstream answered it just now. */
  status: AppointmentStatusView;
  kind: ChangeKind;
  preferredStarts: readonly PreferredStart[];
  /** Sanitised by the contract (optionalText); absent or '' when none. */
  message: string | null | undefined;
}

/**
 * Patients' change requests and the booking records they need (decision
 * 0018): what a patient may ask of a booking (its status view's `changes`),
 * taking a request under the clinic's change rules, and recording each
 * booking this BFF made; each with its outbox messages to the clinic's
 * channels, in one transaction (ChangeStore).
 */
export class ChangeRequests {
  constructor(private readonly options: ChangeRequestsOptions) {}

  /** Throws 503 database_unavailable without the BFF's database, where no change request can be taken. */
  ensureTakesRequests(): ChangeStore {
    if (!this.options.store) throw new ApiError('database_unavailable', 'This BFF takes no change requests: it runs without its database; please call the clinic');
    return this.options.store;
  }

  /**
   * The status view's `changes` for the booking; undefined without the
   * database, or when it fails (logged): the status is shown all the same.
   */
  async viewOf(appointmentId: number, booking: BookingState): Promise<ChangeView | undefined> {
    const { store, siteId, timeZone, notifications, clock, logger } = this.options;
    if (!store) return undefined;
    const now = clock.now();
    try {
      const requests = await withinWait(store.readChangeRequests(siteId, appointmentId, now.getTime()));
      return changeViewOf(booking, now, timeZone, notifications, requests);
    } catch (error) {
      logger.error({ err: databaseErrorOf(error) }, 'change requests not read: the status view goes without changes');
      return undefined;
    }
  }

  /**
   * Records a booking upstream booked, with a booking.created message per
   * channel on; a replay recorded already writes nothing, and a new booking
   * replaces whatever an earlier one of the same id left (change-store.ts). Never
   * throws: the booking is made whatever befalls its record, so a failed
   * write is logged (without patient data), and the clinic learns of the
   * booking from its own system, as before the outbox.
   */
  async bookingMade({ appointmentId, reference, booking, doctorId, replayed, patientMail }: BookingMade): Promise<void> {
    const { store, siteId, timeZone, notifications, clock } = this.options;
    if (!store) return;
    const now = clock.now();
    const treatmentId = booking.treatment_id ?? null;
    const record: BookingRecord = {
      siteId,
      appointmentId,
      date: booking.appointment_date,
      time: booking.appointment_time,
      doctorId,
      treatmentId,
      phone: booking.patient_phone,
      forgetAt: forgetAt(booking.appointment_date, booking.appointment_time, timeZone),
    };
    const event: NotificationEvent = {
      type: 'booking.created',
      occurred_at: now.toISOString(),
      site_id: siteId,
      reference,
      appointment_id: appointmentId,
      appointment: { date: record.date, time: record.time, ...(await this.namesOf(doctorId, treatmentId)) },
      patient: { name: booking.patient_name, phone: booking.patient_phone },
    };
    const patient = patientMail && offersPatientMail(this.options) ? await this.patientMailOf(patientMail, event, record) : undefined;
    const messages = [...clinicMessages(notifications, event), ...(patient ? patientMessages(patient.event, notifications.reminderHoursBefore ?? 0, now.getTime()) : [])];
    try {
      await withinWait(store.recordBooking(record, messages, now.getTime(), { replayed, patientMail: patient?.wish }));
    } catch (error) {
      this.options.logger.error({ err: databaseErrorOf(error) }, 'booking not recorded: the clinic is not told of it by this BFF');
    }
  }

  /**
   * The patient's wish as kept (address, language, a new unsubscribe token)
   * and the confirmation's event: the booking's facts, the clinic's name,
   * address and phone as its website content has them, the appointment's
   * length, and the page its manage link opens (BOOKING_PAGE_URL, else the
   * page booked on if the site allows its origin, else none).
   */
  private async patientMailOf(asked: PatientMailAsked, clinicEvent: NotificationEvent, record: BookingRecord): Promise<{ wish: PatientMailWish; event: PatientMailEvent }> {
    const { timeZone, bookingRules, notifications, pageAllowed } = this.options;
    const [website, treatments] = await Promise.all([this.known(WEBSITE), record.treatmentId === null ? undefined : this.known(TREATMENTS)]);
    const minutes = treatments?.data.find((t) => t.treatment_id === record.treatmentId)?.duration_minutes ?? bookingRules.defaultDurationMinutes;
    const site = website?.site;
    const pageUrl = asked.pageUrl !== undefined && pageAllowed?.(asked.pageUrl) ? pageWithoutFragment(asked.pageUrl) : undefined;
    const language = asked.language ?? 'en';
    const event: PatientMailEvent = {
      type: 'patient.confirmation',
      occurred_at: clinicEvent.occurred_at,
      site_id: clinicEvent.site_id,
      reference: clinicEvent.reference,
      appointment_id: clinicEvent.appointment_id,
      language,
      appointment: {
        date: record.date,
        time: record.time,
        time_zone: timeZone,
        minutes,
        dentist_name: clinicEvent.appointment.dentist_name,
        treatment_name: clinicEvent.appointment.treatment_name,
      },
      clinic: { name: site?.clinic_name ?? null, address: site?.contact_address ?? null, phone: site?.contact_phone ?? null },
      manage_page_url: notifications.bookingPageUrl ?? pageUrl ?? null,
    };
    return { wish: { email: asked.email, language, unsubscribeToken: unsubscribeToken(), forgetAt: record.forgetAt }, event };
  }

  /**
   * Takes a change request: refused (BookingRefused with its reason) while
   * the booking is closed to changes, for a move the clinic does not take
   * online, or for a wished start a booking could not have; answered as
   * already requested when one of its kind was taken before (nothing sent
   * again); else recorded with a message per channel on.
   */
  async request(asked: ChangeAsked): Promise<ChangeRequestTaken> {
    const store = this.ensureTakesRequests();
    const { siteId, timeZone, notifications, clock } = this.options;
    const now = clock.now();
    const { status, kind, appointmentId } = asked;
    const refusal = changeRefusal(kind, status, now, timeZone, notifications.changeRules);
    if (refusal) throw new BookingRefused(refusal, this.refusalSentence(refusal));
    const [requests, record] = await this.stored(() =>
      Promise.all([store.readChangeRequests(siteId, appointmentId, now.getTime()), store.readBooking(siteId, appointmentId, now.getTime())]),
    );
    const first = requests.find((request) => request.kind === kind);
    if (first) return { requestedAt: first.requestedAt, alreadyRequested: true };
    if (kind === 'move') await this.checkStarts(asked.preferredStarts, record, now);
    const doctorId = record?.doctorId ?? null;
    const treatmentId = record?.treatmentId ?? null;
    const event: NotificationEvent = {
      type: kind === 'cancel' ? 'booking.cancel_requested' : 'booking.move_requested',
      occurred_at: now.toISOString(),
      site_id: siteId,
      reference: asked.reference,
      appointment_id: appointmentId,
      appointment: { date: status.date, time: status.time, ...(await this.namesOf(doctorId, treatmentId)) },
      patient: { name: status.name, phone: record?.phone ?? null },
      ...(kind === 'move' ? { preferred_starts: asked.preferredStarts.map(({ date, time }) => ({ date, time })) } : {}),
      message: asked.message ? asked.message : null,
    };
    return this.stored(() =>
      store.recordChangeRequest(
        { siteId, appointmentId, kind, preferredStarts: asked.preferredStarts, forgetAt: forgetAt(status.date, status.time, timeZone) },
        clinicMessages(notifications, event),
        now.getTime(),
      ),
    );
  }

  /** `work` on the database; its failure logged (class and code) and answered 503 database_unavailable: nothing was taken. */
  private async stored<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      this.options.logger.error({ err: databaseErrorOf(error) }, 'change request not taken: the database failed');
      throw new ApiError('database_unavailable', NOT_TAKEN);
    }
  }

  /**
   * Each wished start meets the rules a booking's start meets, in the
   * patient's order: the booking window (the site's notice and horizon), the
   * opening hours (the booking's treatment must end by closing, when this
   * BFF recorded one and the clinic still offers it), the 15-minute grid.
   * The first start that breaks one refuses the request, with that start's reason.
   */
  private async checkStarts(starts: readonly PreferredStart[], record: BookingRecord | undefined, now: Date): Promise<void> {
    const { timeZone, bookingRules } = this.options;
    const [website, treatments] = await Promise.all([this.known(WEBSITE), record?.treatmentId != null ? this.known(TREATMENTS) : undefined]);
    const treatmentMinutes = treatments?.data.find((t) => t.treatment_id === record?.treatmentId)?.duration_minutes;
    const clinic = clinicNow(now, timeZone, bookingRules);
    for (const [index, { date, time }] of starts.entries()) {
      const refusal = wholeStartRefusalOf(clinic, date, time, website?.site.opening_hours, treatmentMinutes);
      if (refusal) throw new BookingRefused(refusal.reason, `preferred_starts.${index} (${date} ${time}) cannot be booked: ${refusal.sentence}`);
    }
  }

  /** The dentist's and the treatment's names as the clinic's content has them now; null where unknown or unreadable. */
  private async namesOf(doctorId: number | null, treatmentId: number | null): Promise<AppointmentNames> {
    const [dentists, treatments] = await Promise.all([
      doctorId === null ? undefined : this.known(DENTISTS),
      treatmentId === null ? undefined : this.known(TREATMENTS),
    ]);
    return {
      doctor_id: doctorId,
      dentist_name: dentists?.data.find((d) => d.doctor_id === doctorId)?.doctor_name ?? null,
      treatment_id: treatmentId,
      treatment_name: treatments?.data.find((t) => t.treatment_id === treatmentId)?.treatment_name ?? null,
    };
  }

  /** A resource as a booking reads it; undefined when it cannot be read (then what it would tell is unknown). */
  private known<T>(resource: ContentResource<T>): Promise<T | undefined> {
    return this.options.facts.current(resource).catch(() => undefined);
  }

  /** The English words of a refusal of the request itself, for integrators (the widget words the code). */
  private refusalSentence(reason: RefusalReason): string {
    const { changeRules } = this.options.notifications;
    switch (reason) {
      case 'already_cancelled':
        return 'the booking is already cancelled';
      case 'appointment_completed':
        return 'the appointment has taken place (Completed)';
      case 'in_past':
        return `the appointment has already started (clinic time ${this.options.timeZone})`;
      case 'inside_change_window':
        return `the appointment starts in less than ${changeRules.minNoticeHours} hours, when changes are no longer taken online; please call the clinic`;
      case 'move_not_offered':
        return 'the clinic takes only cancellations online; please call the clinic to move the booking';
      default:
        return reason;
    }
  }
}

/** A page's URL without its query and fragment: what a manage link is built on. */
function pageWithoutFragment(pageUrl: string): string {
  const url = new URL(pageUrl);
  return `${url.origin}${url.pathname}`;
}
