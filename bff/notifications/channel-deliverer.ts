import type { Deliverer, DeliveryResult, OutboxMessage } from '../outbox/outbox-message.js';
import { renderClinicMail } from './clinic-mail.js';
import type { MailLanguage } from './mail-language.js';
import type { SiteNotifications } from './notification-settings.js';
import type { MailSending, OutgoingMail } from './outgoing-mail.js';
import type { WebhookSender } from './webhook-sender.js';

/** A site's notifications as delivery reads them, with the name its e-mail gives the clinic. */
export type NotifiedSite = SiteNotifications & { clinicName?: string };

export interface ChannelDelivererOptions {
  /**
   * The site's notifications as they are now (site-settings.ts,
   * currentSiteNotifications: the default site's from the settings, a
   * database site's from its row); undefined when there is no such site.
   */
  notificationsOf: (siteId: string) => Promise<NotifiedSite | undefined>;
  /** Sends e-mail through the relay the site's notifications name (MailSenders). */
  mail: MailSending;
  webhook: Pick<WebhookSender, 'send'>;
}

/**
 * The outbox worker's Deliverer: sends a message over its channel to where
 * the site says now, not where it said when the message was queued
 * (decision 0018, "Channels are read at delivery"), the clinic's e-mail
 * through the site's relay (its own or the BFF's). A channel switched off,
 * a site removed, or e-mail without a relay is permanent: no later try
 * could send it, so the message is dead at once instead of retried for a
 * day. A site whose settings cannot be read now (its database, its sealed
 * secret) is a failed try.
 */
export function channelDeliverer({ notificationsOf, mail, webhook }: ChannelDelivererOptions): Deliverer {
  return {
    async deliver(message: OutboxMessage): Promise<DeliveryResult> {
      let site: NotifiedSite | undefined;
      try {
        site = await notificationsOf(message.event.site_id);
      } catch {
        return { delivered: false, permanent: false, error: 'site unreadable' };
      }
      if (!site) return { delivered: false, permanent: true, error: 'site gone' };
      try {
        if (message.channel === 'email') {
          if (site.email === undefined) return { delivered: false, permanent: true, error: 'email off' };
          if (!site.mailRelay) return { delivered: false, permanent: true, error: 'no mail relay' };
          return await mail.send(site.mailRelay, message, clinicMailOf(message, { address: site.email, language: site.language, clinicName: site.clinicName }));
        }
        if (message.channel === 'webhook') {
          if (!site.webhook) return { delivered: false, permanent: true, error: 'webhook off' };
          return await webhook.send(message, site.webhook);
        }
        return { delivered: false, permanent: true, error: 'unknown channel' };
      } catch {
        // The senders never throw; this keeps the promise of the Deliverer if one ever did.
        return { delivered: false, permanent: false, error: 'delivery failed' };
      }
    },
  };
}

/** Where one site's clinic e-mail goes and in which words. */
export interface MailRecipient {
  address: string;
  language: MailLanguage;
  /** Named in the mail's last line, when the site has a name. */
  clinicName?: string;
}

/** The clinic's e-mail of a message (clinic-mail.ts), to the site's address. */
export function clinicMailOf(message: Pick<OutboxMessage, 'event'>, to: MailRecipient): OutgoingMail {
  const { subject, text, html } = renderClinicMail(message.event, to.language, to.clinicName);
  return { to: to.address, subject, text, html };
}
