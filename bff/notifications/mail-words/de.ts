import type { MailWords } from './mail-words.js';

/** The clinic's e-mails in German. */
export const de: MailWords = {
  locale: 'de-DE',
  dir: 'ltr',
  colon: ': ',
  subject: {
    'booking.created': (when, reference) => `Neue Buchung: ${when}, ${reference}`,
    'booking.cancel_requested': (when, reference) => `Absagewunsch: ${when}, ${reference}`,
    'booking.move_requested': (when, reference) => `Verschiebungswunsch: ${when}, ${reference}`,
  },
  heading: {
    'booking.created': 'Neue Online-Buchung',
    'booking.cancel_requested': 'Bitte um Absage eines Termins',
    'booking.move_requested': 'Bitte um Verschiebung eines Termins',
  },
  lead: {
    'booking.created':
      'Dieser Termin wurde über Ihre Website gebucht und steht bereits in Ihrem Praxissystem.',
    'booking.cancel_requested':
      'Über Ihre Website wurde darum gebeten, diesen Termin abzusagen. Er ist noch nicht storniert: Bitte sagen Sie ihn in Ihrem Praxissystem ab und geben Sie der Patientin oder dem Patienten bei Bedarf Bescheid.',
    'booking.move_requested':
      'Über Ihre Website wurde darum gebeten, diesen Termin zu verschieben. Noch ist nichts geändert: Bitte vereinbaren Sie mit der Patientin oder dem Patienten eine neue Zeit und ändern Sie den Termin dann in Ihrem Praxissystem.',
  },
  labels: {
    reference: 'Buchungsnummer',
    appointmentId: 'Termin-ID (Praxissystem)',
    date: 'Datum',
    time: 'Uhrzeit',
    dentist: 'Zahnarzt/Zahnärztin',
    treatment: 'Behandlung',
    patient: 'Patient/in',
    phone: 'Telefon',
    preferredStarts: 'Wunschtermine, nach Priorität',
    message: 'Nachricht',
  },
  notGiven: 'nicht angegeben',
  sentBy: (clinicName) => (clinicName ? `Automatisch versendet von der Online-Terminbuchung von ${clinicName}.` : 'Automatisch versendet von Ihrer Online-Terminbuchung.'),
};
