import type { PatientWords } from './patient-words.js';

/** The patient's e-mails and unsubscribe page in Dutch. */
export const nl: PatientWords = {
  locale: 'nl-NL',
  dir: 'ltr',
  colon: ': ',
  subject: {
    'patient.confirmation': (date, time, clinic) => `Uw afspraak op ${date} om ${time} is geboekt${clinic ? ` (${clinic})` : ''}`,
    'patient.reminder': (date, time, clinic) => `Herinnering: uw afspraak op ${date} om ${time}${clinic ? ` (${clinic})` : ''}`,
  },
  heading: {
    'patient.confirmation': () => 'Uw afspraak is geboekt',
    'patient.reminder': (date, time) => `Herinnering: uw afspraak op ${date} om ${time}`,
  },
  lead: {
    'patient.confirmation': (clinic) =>
      clinic ? `Bedankt voor uw boeking bij ${clinic}. Hier zijn de gegevens van uw afspraak.` : 'Bedankt voor uw boeking. Hier zijn de gegevens van uw afspraak.',
    'patient.reminder': () => 'We zien u graag. Kunt u niet komen? Zeg de afspraak dan op tijd af, zodat iemand anders hem kan krijgen.',
  },
  labels: {
    date: 'Datum',
    time: 'Tijd',
    treatment: 'Behandeling',
    dentist: 'Tandarts',
    clinic: 'Praktijk',
    address: 'Adres',
    phone: 'Telefoon',
    reference: 'Boekingsnummer',
  },
  timeInZone: (time, zone) => `${time} (${zone})`,
  manage: 'Uw afspraak beheren of annuleren',
  changeByPhone: (phone) => `Wijzigen of annuleren? Bel de praktijk: ${phone}`,
  calendarManage: 'Afspraak beheren',
  calendarAttached: 'Open het bijgevoegde bestand om de afspraak aan uw agenda toe te voegen.',
  why: (clinic) =>
    `U krijgt deze e-mail omdat u bij het online boeken${clinic ? ` bij ${clinic}` : ''} om een bevestiging en een herinnering per e-mail hebt gevraagd. Verder sturen we u niets.`,
  stop: 'Geen herinneringen meer',
  page: {
    askTitle: 'Geen e-mails meer over deze boeking?',
    askLead: 'U krijgt dan geen bevestigingen of herinneringen meer over deze afspraak. Uw afspraak blijft staan.',
    button: 'Stop de e-mails',
    doneTitle: 'U krijgt geen e-mails meer over deze boeking',
    doneLead: 'Uw afspraak blijft staan. Wilt u hem wijzigen of annuleren? Gebruik de link in uw bevestiging of bel de praktijk.',
    goneTitle: 'Geen e-mails om te stoppen',
    goneLead: 'Via deze link worden geen e-mails meer verstuurd: hij is misschien al gebruikt, of de afspraak is voorbij. Deze pagina verandert niets aan uw afspraak.',
    failedTitle: 'Dat is niet gelukt',
    failedLead: 'Er is niets gewijzigd. Probeer het over een paar minuten opnieuw.',
  },
};
