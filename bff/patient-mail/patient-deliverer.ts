import type { AppointmentStatusView } from '../../contract/index.js';
import { instantOf } from '../availability/zoned-time.js';
import type { NotifiedSite } from '../notifications/channel-deliverer.js';
import type { MailSending, OutgoingMail } from '../notifications/outgoing-mail.js';
import type { Clock } from '../../platform/clock.js';
import type { Deliverer, DeliveryResult, OutboxMessage } from '../outbox/outbox-message.js';
import type { PatientMailEvent } from './patient-mail-event.js';
import type { PatientRecipient } from './patient-recipients.js';

/**
 * How a patient's message reaches the patient. E-mail is the one transport
 * built; an SMS provider would be another (decision 19, "A transport seam"):
 * its own consent and number kept beside the booking, its own rendering, and
 * the same outbox, checks and withdrawal, without touching the booking path.
 */
export interface PatientTransport {
  send(site: NotifiedSite, message: OutboxMessage<PatientMailEvent>, mail: OutgoingMail): Promise<DeliveryResult>;
}

/**
 * The longest a reminder's status lookup may take (a token exchange and the
 * call): past it the try fails and is tried again. Bounded so that the
 * lookup and the e-mail (MAIL_TRY_DEADLINE_MS) together stay inside the
 * outbox's shortest lease (OUTBOX_LEASE_SECONDS_BOUNDS), and no other worker
 * takes the message over while this try still runs.
 */
export const STATUS_CHECK_DEADLINE_MS = 10_000;

export interface PatientDelivererOptions {
  /** The patient who asked for e-mail about a booking, while the BFF keeps the wish; undefined once it is gone. */
  recipientOf(siteId: string, appointmentId: number, now: number): Promise<PatientRecipient | undefined>;
  /** The site's channels and relay now (currentSiteNotifications); undefined when the site is gone. */
  notificationsOf(siteId: string): Promise<NotifiedSite | undefined>;
  /** The booking's status upstream now (Bff.statusOf); undefined when the clinic system has no such booking. */
  statusOf(siteId: string, appointmentId: number): Promise<AppointmentStatusView | undefined>;
  /** The e-mail of a message to its recipient (patient-mail-render.ts, with the unsubscribe link and headers). */
  compose(event: PatientMailEvent, recipient: PatientRecipient, now: Date): OutgoingMail;
  transport: PatientTransport;
  clock: Clock;
}

/**
 * Delivers a patient's confirmation or reminder (decision 19). Nothing goes
 * once the appointment has begun, nor to a patient who unsubscribed or was
 * erased (their row is gone): such a message is withdrawn, not dead. A
 * reminder goes only while the clinic system still says Scheduled at the
 * booked date and time; a status that cannot be read now is a failed try,
 * tried again until the appointment begins.
 */
export function patientDeliverer(options: PatientDelivererOptions): Deliverer<PatientMailEvent> {
  return {
    async deliver(message) {
      const { event } = message;
      const now = options.clock.now();
      const { date, time, time_zone: zone } = event.appointment;
      if (now.getTime() >= instantOf(date, time, zone)) return withdrawn('appointment began');
      let recipient: PatientRecipient | undefined;
      let site: NotifiedSite | undefined;
      try {
        [recipient, site] = await Promise.all([
          options.recipientOf(event.site_id, event.appointment_id, now.getTime()),
          options.notificationsOf(event.site_id),
        ]);
      } catch {
        return { delivered: false, permanent: false, error: 'site or recipient unreadable' };
      }
      if (!recipient) return withdrawn('no recipient');
      if (!site) return { delivered: false, permanent: true, error: 'site gone' };
      if (event.type === 'patient.reminder') {
        let status: AppointmentStatusView | undefined;
        try {
          status = await withinDeadline(options.statusOf(event.site_id, event.appointment_id), STATUS_CHECK_DEADLINE_MS);
        } catch (error) {
          return { delivered: false, permanent: false, error: error instanceof StatusCheckLate ? 'status lookup timeout' : 'status lookup failed' };
        }
        if (!status) return withdrawn('booking gone');
        if (status.status !== 'Scheduled') return withdrawn(`booking ${status.status}`);
        if (status.date !== date || status.time.slice(0, 5) !== time.slice(0, 5)) return withdrawn('booking moved');
      }
      try {
        return await options.transport.send(site, message, options.compose(event, recipient, now));
      } catch {
        // A transport never throws; nor does compose, for an event the booking path wrote.
        return { delivered: false, permanent: false, error: 'patient delivery failed' };
      }
    },
  };
}

const withdrawn = (reason: string): DeliveryResult => ({ delivered: false, withdrawn: true, reason });

class StatusCheckLate extends Error {}

/** `work`, or a StatusCheckLate rejection once `ms` have passed (the work itself is left to end on its own). */
async function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StatusCheckLate()), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The e-mail transport: through the site's relay (its own, or the BFF's), the
 * whole message passed so a bounce is counted as a patient's. A site without
 * a relay now can never send it: dead at once.
 */
export function emailTransport(mail: MailSending): PatientTransport {
  return {
    send(site, message, outgoing) {
      if (!site.mailRelay) return Promise.resolve({ delivered: false, permanent: true, error: 'no mail relay' });
      return mail.send(site.mailRelay, message, outgoing);
    },
  };
}
