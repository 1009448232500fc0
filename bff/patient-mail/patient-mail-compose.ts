import type { OutgoingMail } from '../notifications/outgoing-mail.js';
import type { PatientMailEvent } from './patient-mail-event.js';
import { renderPatientMail } from './patient-mail-render.js';
import type { PatientRecipient } from './patient-recipients.js';
import { unsubscribeHeaders, unsubscribeUrl } from './unsubscribe-link.js';

/**
 * A patient's message as the e-mail that goes: rendered in the recipient's
 * language (the event's: the widget's when the patient booked), to their
 * address, with the one-click unsubscribe of RFC 8058 and the calendar file.
 *
 * The file is the widget's download, a plain calendar entry without a METHOD
 * line: a file to open, not an iTIP message. Its Content-Type names no
 * method either, as RFC 5545 (3.7.2) asks both to be there or neither; a
 * `method=PUBLISH` beside a file without METHOD is a message clients may
 * take for an invitation they cannot read.
 */
export function composePatientMail(publicOrigin: string): (event: PatientMailEvent, recipient: PatientRecipient, now: Date) => OutgoingMail {
  return (event, recipient, now) => {
    const url = unsubscribeUrl(publicOrigin, recipient.unsubscribeToken);
    const mail = renderPatientMail(event, { unsubscribeUrl: url }, now);
    return {
      to: recipient.email,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: unsubscribeHeaders(url),
      ...(mail.ics ? { attachments: [{ filename: mail.ics.filename, content: mail.ics.content, contentType: 'text/calendar; charset=utf-8' }] } : {}),
    };
  };
}
