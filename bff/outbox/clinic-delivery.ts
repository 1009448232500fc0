import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { BffConfig } from '../config.js';
import type { BffMetrics } from '../metrics/bff-metrics.js';
import { channelDeliverer } from '../notifications/channel-deliverer.js';
import { MailSenders } from '../notifications/mail-sender.js';
import { WebhookSender } from '../notifications/webhook-sender.js';
import { OutboundPolicy } from '../outbound/outbound-policy.js';
import { currentSiteNotifications } from '../sites/site-settings.js';
import type { SiteStore } from '../sites/site.store.js';
import type { SitesDatabase } from '../sites/sites-database.js';
import type { AppointmentStatusView } from '../../contract/index.js';
import { composePatientMail } from '../patient-mail/patient-mail-compose.js';
import { emailTransport, patientDeliverer } from '../patient-mail/patient-deliverer.js';
import { recipientOf } from '../patient-mail/patient-recipients.js';
import { routeByEvent } from './event-router.js';
import { OutboxStore } from './outbox-store.js';
import { OutboxWorker } from './outbox-worker.js';

export interface ClinicDeliveryDeps {
  config: BffConfig;
  database: SitesDatabase;
  /** The sites of the database (SITE_SECRETS_KEY); absent, only the default site's messages can be delivered. */
  sites?: Pick<SiteStore, 'notifying'>;
  logger: Logger;
  clock: Clock;
  metrics?: BffMetrics;
  /**
   * A booking's status upstream now (Bff.statusOf), which a reminder checks
   * before it goes. Absent: no patient's message is delivered here (each try fails, for another instance to take).
   */
  statusOf?: (siteId: string, appointmentId: number) => Promise<AppointmentStatusView | undefined>;
}

/**
 * The BFF's outbox worker, ready to start: its messages go by e-mail through
 * each site's relay (its own, or SMTP_URL) and by webhook under the outbound
 * rule, to wherever each site's channels point at the time of delivery.
 * main.ts starts it, and nudges it whenever a booking or change request
 * queued messages.
 */
export function clinicDelivery({ config, database, sites, logger, clock, metrics, statusOf }: ClinicDeliveryDeps): {
  worker: OutboxWorker;
  /** Every relay's pool, the clinic's and the patients' mail alike: closed with the worker. */
  mailSenders: MailSenders;
  close(): Promise<void>;
} {
  const store = new OutboxStore(database.db, database.engine);
  const mailSenders = new MailSenders({ observer: metrics, clock });
  const notificationsOf = currentSiteNotifications(config, sites);
  const deliverer = channelDeliverer({
    notificationsOf,
    mail: mailSenders,
    webhook: new WebhookSender({ outbound: new OutboundPolicy({ allowlist: config.outboundAllowlist }), clock }),
  });
  // The patients' e-mail (decision 19): only where the unsubscribe link can be made (PUBLIC_ORIGIN) and statuses read.
  const patient =
    config.publicOrigin !== undefined && statusOf
      ? patientDeliverer({
          recipientOf: (siteId, appointmentId, now) => recipientOf(database.db, siteId, appointmentId, now),
          notificationsOf,
          statusOf,
          compose: composePatientMail(config.publicOrigin),
          transport: emailTransport(mailSenders),
          clock,
        })
      : undefined;
  const worker = new OutboxWorker({
    store,
    deliverer: routeByEvent(deliverer, patient),
    clock,
    settings: config.notifications.outbox,
    leaseMs: config.notifications.outbox.leaseMs,
    logger: logger.child({ part: 'outbox' }),
    observer: metrics,
  });
  metrics?.observeOutbox(store);
  return {
    worker,
    mailSenders,
    async close() {
      await worker.stop();
      mailSenders.close();
    },
  };
}
