import type { MailWords } from './mail-words.js';

/** The clinic's e-mails in Dutch. */
export const nl: MailWords = {
  locale: 'nl-NL',
  dir: 'ltr',
  colon: ': ',
  subject: {
    'booking.created': (when, reference) => `Nieuwe afspraak: ${when}, ${reference}`,
    'booking.cancel_requested': (when, reference) => `Annuleringsverzoek: ${when}, ${reference}`,
    'booking.move_requested': (when, reference) => `Verzoek om te verzetten: ${when}, ${reference}`,
  },
  heading: {
    'booking.created': 'Nieuwe online afspraak',
    'booking.cancel_requested': 'Verzoek om een afspraak te annuleren',
    'booking.move_requested': 'Verzoek om een afspraak te verzetten',
  },
  lead: {
    'booking.created':
      'Deze afspraak is via uw website geboekt en staat al in uw praktijksysteem.',
    'booking.cancel_requested':
      'Een patiënt heeft via uw website gevraagd deze afspraak te annuleren. De afspraak is nog niet geannuleerd: annuleer hem in uw praktijksysteem en laat het de patiënt zo nodig weten.',
    'booking.move_requested':
      'Een patiënt heeft via uw website gevraagd deze afspraak te verzetten. Er is nog niets gewijzigd: spreek met de patiënt een nieuw tijdstip af en pas de afspraak daarna aan in uw praktijksysteem.',
  },
  labels: {
    reference: 'Boekingsnummer',
    appointmentId: 'Afspraak-ID (praktijksysteem)',
    date: 'Datum',
    time: 'Tijd',
    dentist: 'Tandarts',
    treatment: 'Behandeling',
    patient: 'Patiënt',
    phone: 'Telefoon',
    preferredStarts: 'Gewenste nieuwe tijden, op volgorde van voorkeur',
    message: 'Bericht van de patiënt',
  },
  notGiven: 'niet opgegeven',
  sentBy: (clinicName) => (clinicName ? `Automatisch verstuurd door de online afsprakenplanner van ${clinicName}.` : 'Automatisch verstuurd door uw online afsprakenplanner.'),
};
