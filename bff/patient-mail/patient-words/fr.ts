import type { PatientWords } from './patient-words.js';

/** The patient's e-mails and unsubscribe page in French (a no-break space before a colon or question mark, as French sets them). */
export const fr: PatientWords = {
  locale: 'fr-FR',
  dir: 'ltr',
  colon: '\u00a0: ',
  subject: {
    'patient.confirmation': (date, time, clinic) => `Votre rendez-vous du ${date} à ${time} est confirmé${clinic ? ` (${clinic})` : ''}`,
    'patient.reminder': (date, time, clinic) => `Rappel\u00a0: votre rendez-vous du ${date} à ${time}${clinic ? ` (${clinic})` : ''}`,
  },
  heading: {
    'patient.confirmation': () => 'Votre rendez-vous est réservé',
    'patient.reminder': (date, time) => `Rappel\u00a0: votre rendez-vous du ${date} à ${time}`,
  },
  lead: {
    'patient.confirmation': (clinic) =>
      clinic
        ? `Merci d’avoir réservé auprès de ${clinic}. Voici les détails de votre rendez-vous.`
        : 'Merci pour votre réservation. Voici les détails de votre rendez-vous.',
    'patient.reminder': () =>
      'Nous avons hâte de vous accueillir. Si vous ne pouvez pas venir, merci d’annuler suffisamment tôt pour que quelqu’un d’autre puisse prendre ce rendez-vous.',
  },
  labels: {
    date: 'Date',
    time: 'Heure',
    treatment: 'Soin',
    dentist: 'Dentiste',
    clinic: 'Cabinet',
    address: 'Adresse',
    phone: 'Téléphone',
    reference: 'Référence de réservation',
  },
  timeInZone: (time, zone) => `${time} (${zone})`,
  manage: 'Gérer ou annuler votre rendez-vous',
  changeByPhone: (phone) => `Pour modifier ou annuler, appelez le cabinet\u00a0: ${phone}`,
  calendarManage: 'Gérer le rendez-vous',
  calendarAttached: 'Pour ajouter le rendez-vous à votre calendrier, ouvrez le fichier joint.',
  why: (clinic) =>
    `Vous recevez cet e-mail parce que vous avez demandé une confirmation et un rappel par e-mail lors de votre réservation en ligne${clinic ? ` auprès de ${clinic}` : ''}. Nous n’envoyons rien d’autre.`,
  stop: 'Ne plus recevoir de rappels',
  page: {
    askTitle: 'Ne plus recevoir d’e-mails pour ce rendez-vous\u00a0?',
    askLead: 'Vous ne recevrez plus de confirmation ni de rappel pour ce rendez-vous. Votre rendez-vous reste réservé.',
    button: 'Arrêter les e-mails',
    doneTitle: 'Vous ne recevrez plus d’e-mails pour ce rendez-vous',
    doneLead: 'Votre rendez-vous reste réservé. Pour le modifier ou l’annuler, utilisez le lien de votre confirmation ou appelez le cabinet.',
    goneTitle: 'Aucun e-mail à arrêter',
    goneLead: 'Plus aucun e-mail n’est envoyé par ce lien\u00a0: il a peut-être déjà servi, ou le rendez-vous est passé. Cette page ne change rien à votre rendez-vous.',
    failedTitle: 'Cela n’a pas fonctionné',
    failedLead: 'Rien n’a été modifié. Veuillez réessayer dans quelques minutes.',
  },
};
