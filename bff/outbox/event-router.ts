import type { NotificationEvent } from '../notifications/notification-event.js';
import { isPatientMailEvent, type PatientMailEvent } from '../patient-mail/patient-mail-event.js';
import type { Deliverer, DeliveryResult, OutboxEvent, OutboxMessage } from './outbox-message.js';

/**
 * The worker's one Deliverer: a patient's message (patient.*) to the
 * patient's deliverer, every other to the clinic's channels. Without a
 * patient's deliverer (this instance lacks PUBLIC_ORIGIN: one of a rolling
 * deploy, say), a patient's message is a failed try, not a dead one: another
 * instance, or this one once set, sends it.
 */
export function routeByEvent(clinic: Deliverer<NotificationEvent>, patient: Deliverer<PatientMailEvent> | undefined): Deliverer<OutboxEvent> {
  return {
    deliver(message: OutboxMessage<OutboxEvent>): Promise<DeliveryResult> {
      const { event } = message;
      if (!isPatientMailEvent(event)) return clinic.deliver({ ...message, event });
      if (!patient) return Promise.resolve({ delivered: false, permanent: false, error: 'patient mail off here (PUBLIC_ORIGIN)' });
      return patient.deliver({ ...message, event });
    },
  };
}
