import type { PatientWords } from './patient-words.js';

/** The patient's e-mails and unsubscribe page in Spanish. */
export const es: PatientWords = {
  locale: 'es-ES',
  dir: 'ltr',
  colon: ': ',
  subject: {
    'patient.confirmation': (date, time, clinic) => `Su cita del ${date} a las ${time} está reservada${clinic ? ` (${clinic})` : ''}`,
    'patient.reminder': (date, time, clinic) => `Recordatorio: su cita del ${date} a las ${time}${clinic ? ` (${clinic})` : ''}`,
  },
  heading: {
    'patient.confirmation': () => 'Su cita está reservada',
    'patient.reminder': (date, time) => `Recordatorio: su cita del ${date} a las ${time}`,
  },
  lead: {
    'patient.confirmation': (clinic) =>
      clinic ? `Gracias por reservar en ${clinic}. Estos son los datos de su cita.` : 'Gracias por su reserva. Estos son los datos de su cita.',
    'patient.reminder': () => 'Le esperamos. Si no puede venir, cancele la cita con tiempo para que otra persona pueda aprovecharla.',
  },
  labels: {
    date: 'Fecha',
    time: 'Hora',
    treatment: 'Tratamiento',
    dentist: 'Dentista',
    clinic: 'Clínica',
    address: 'Dirección',
    phone: 'Teléfono',
    reference: 'Referencia de la reserva',
  },
  timeInZone: (time, zone) => `${time} (${zone})`,
  manage: 'Gestionar o cancelar su cita',
  changeByPhone: (phone) => `Para cambiar o cancelar, llame a la clínica: ${phone}`,
  calendarManage: 'Gestionar la cita',
  calendarAttached: 'Para añadir la cita a su calendario, abra el archivo adjunto.',
  why: (clinic) =>
    `Recibe este correo porque pidió una confirmación y un recordatorio por correo electrónico al reservar en línea${clinic ? ` en ${clinic}` : ''}. No le enviamos nada más.`,
  stop: 'No recibir más recordatorios',
  page: {
    askTitle: '¿Dejar de recibir correos sobre esta reserva?',
    askLead: 'No recibirá más confirmaciones ni recordatorios sobre esta cita. Su cita sigue reservada.',
    button: 'Dejar de recibir correos',
    doneTitle: 'No recibirá más correos sobre esta reserva',
    doneLead: 'Su cita sigue reservada. Para cambiarla o cancelarla, use el enlace de su confirmación o llame a la clínica.',
    goneTitle: 'No hay correos que detener',
    goneLead: 'Este enlace ya no envía correos: puede que ya se haya usado o que la cita ya haya pasado. Esta página no cambia nada de su cita.',
    failedTitle: 'No ha funcionado',
    failedLead: 'No se ha cambiado nada. Vuelva a intentarlo dentro de unos minutos.',
  },
};
