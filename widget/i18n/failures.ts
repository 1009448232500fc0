import type { RefusalReason } from '../../contract/rules/bff-api.js';

/**
 * What the patient reads when the BFF did not take a booking or a change request, beyond the
 * common failures (the clinic unreachable or busy, in the widget's Translation): a refusal (400
 * validation_error) by its reason, a time just taken (409), too many attempts (429), an outcome
 * unknown (504). A path patients rarely meet, so these sentences are no part of the widget's
 * module: they come in a file of their own, fetched with the first such answer (failure-text.ts).
 * The compiler asks for a new sentence in each language when the contract adds a refusal reason.
 */
export interface FailureWords {
  /** One sentence per refusal reason, saying what to do instead. */
  refusal: Record<RefusalReason, string>;
  /** A refusal without a reason this widget knows. */
  errRefused: string;
  errSlotTaken: string;
  errRateLimited: string;
  /** Too many attempts (429), with its Retry-After in whole minutes. */
  errRateLimitedIn: (minutes: number) => string;
  /** A booking the clinic's system did not confirm in time, even after re-sending it: it may or may not be booked. */
  errOutcomeUnknown: string;
}

export const FAILURES: Record<string, FailureWords> & Record<'en', FailureWords> = {
  en: {
    refusal: {
      in_past: 'That time has already passed. Please choose a later one.',
      closed_day: 'The clinic is closed on that day. Please choose another day.',
      outside_hours: 'The clinic is not open at that time. Please choose another time.',
      ends_after_closing: 'The treatment would not fit in the opening hours at that time. Please choose an earlier time or another day.',
      inside_notice: 'That time is too soon: the clinic needs more notice. Please choose a later time.',
      beyond_horizon: 'That day is too far ahead to book yet. Please choose an earlier day.',
      off_grid: 'An appointment cannot start at that time. Please choose one of the times offered.',
      unknown_treatment: 'That treatment is no longer offered. Please choose another, or “Not sure yet”.',
      unknown_dentist: 'That dentist can no longer be booked. Please choose another, or “Any dentist”.',
      inside_change_window: 'The appointment is now too close to change online.',
      move_not_offered: 'The clinic does not take requests for another time online.',
      already_cancelled: 'This appointment is already cancelled.',
      appointment_completed: 'This appointment has already taken place.',
    },
    errRefused: 'The clinic could not accept this booking. Please check your choices, or call the clinic.',
    errSlotTaken: 'That time has just been taken. Please choose another time or dentist.',
    errRateLimited: 'Too many attempts. Please wait a few minutes and try again.',
    errRateLimitedIn: (minutes) => `Too many attempts. Please try again in ${minutes === 1 ? '1 minute' : `${minutes} minutes`}.`,
    errOutcomeUnknown:
      'The clinic’s system is slow to answer, so we could not confirm your booking. Please try again in a moment: your details are kept, and it will not be booked twice.',
  },
  de: {
    refusal: {
      in_past: 'Diese Uhrzeit ist schon vorbei. Bitte eine spätere wählen.',
      closed_day: 'An diesem Tag ist die Praxis geschlossen. Bitte einen anderen Tag wählen.',
      outside_hours: 'Zu dieser Uhrzeit ist die Praxis nicht geöffnet. Bitte eine andere Uhrzeit wählen.',
      ends_after_closing: 'Die Behandlung passt zu dieser Zeit nicht in die Öffnungszeiten. Bitte eine frühere Zeit oder einen anderen Tag wählen.',
      inside_notice: 'Diese Uhrzeit ist zu kurzfristig: Die Praxis braucht mehr Vorlauf. Bitte eine spätere Zeit wählen.',
      beyond_horizon: 'Dieser Tag liegt zu weit in der Zukunft, um ihn schon zu buchen. Bitte einen früheren Tag wählen.',
      off_grid: 'Zu dieser Uhrzeit kann kein Termin beginnen. Bitte eine der angebotenen Zeiten wählen.',
      unknown_treatment: 'Diese Behandlung wird nicht mehr angeboten. Bitte eine andere wählen oder „Noch unklar“.',
      unknown_dentist: 'Bei dieser Person kann nicht mehr gebucht werden. Bitte jemand anderen wählen oder „Beliebig“.',
      inside_change_window: 'Der Termin ist jetzt zu nah, um ihn online zu ändern.',
      move_not_offered: 'Die Praxis nimmt Anfragen für eine andere Zeit nicht online an.',
      already_cancelled: 'Dieser Termin ist bereits abgesagt.',
      appointment_completed: 'Dieser Termin hat bereits stattgefunden.',
    },
    errRefused: 'Die Praxis konnte diese Buchung nicht annehmen. Bitte Ihre Auswahl prüfen oder die Praxis anrufen.',
    errSlotTaken: 'Diese Uhrzeit ist gerade vergeben worden. Bitte eine andere Zeit oder Person wählen.',
    errRateLimited: 'Zu viele Versuche. Bitte einige Minuten warten und erneut versuchen.',
    errRateLimitedIn: (minutes) => `Zu viele Versuche. Bitte in ${minutes === 1 ? '1 Minute' : `${minutes} Minuten`} erneut versuchen.`,
    errOutcomeUnknown:
      'Das System der Praxis antwortet gerade langsam, daher konnten wir Ihre Buchung nicht bestätigen. Bitte gleich erneut versuchen: Ihre Angaben bleiben erhalten, und es wird nicht doppelt gebucht.',
  },
  fr: {
    refusal: {
      in_past: 'Cette heure est déjà passée. Veuillez en choisir une plus tardive.',
      closed_day: 'Le cabinet est fermé ce jour-là. Veuillez choisir un autre jour.',
      outside_hours: 'Le cabinet n’est pas ouvert à cette heure. Veuillez choisir une autre heure.',
      ends_after_closing: 'Le soin ne tiendrait pas dans les horaires d’ouverture à cette heure. Veuillez choisir une heure plus tôt ou un autre jour.',
      inside_notice: 'Cette heure est trop proche : le cabinet a besoin d’un délai. Veuillez choisir une heure plus tardive.',
      beyond_horizon: 'Ce jour est encore trop éloigné pour être réservé. Veuillez choisir un jour plus proche.',
      off_grid: 'Un rendez-vous ne peut pas commencer à cette heure. Veuillez choisir l’un des créneaux proposés.',
      unknown_treatment: 'Ce soin n’est plus proposé. Veuillez en choisir un autre, ou « Je ne sais pas encore ».',
      unknown_dentist: 'Ce dentiste ne peut plus être réservé. Veuillez en choisir un autre, ou « Peu importe ».',
      inside_change_window: 'Le rendez-vous est désormais trop proche pour être modifié en ligne.',
      move_not_offered: 'Le cabinet ne prend pas les demandes de changement d’horaire en ligne.',
      already_cancelled: 'Ce rendez-vous est déjà annulé.',
      appointment_completed: 'Ce rendez-vous a déjà eu lieu.',
    },
    errRefused: 'Le cabinet n’a pas pu accepter cette réservation. Vérifiez vos choix, ou appelez le cabinet.',
    errSlotTaken: 'Ce créneau vient d’être pris. Veuillez choisir une autre heure ou un autre dentiste.',
    errRateLimited: 'Trop de tentatives. Patientez quelques minutes puis réessayez.',
    errRateLimitedIn: (minutes) => `Trop de tentatives. Réessayez dans ${minutes === 1 ? '1 minute' : `${minutes} minutes`}.`,
    errOutcomeUnknown:
      'Le système du cabinet tarde à répondre, nous n’avons donc pas pu confirmer votre réservation. Réessayez dans un instant : vos informations sont conservées et rien ne sera réservé deux fois.',
  },
  es: {
    refusal: {
      in_past: 'Esa hora ya ha pasado. Elija una posterior.',
      closed_day: 'La clínica está cerrada ese día. Elija otro día.',
      outside_hours: 'La clínica no abre a esa hora. Elija otra hora.',
      ends_after_closing: 'El tratamiento no cabe en el horario a esa hora. Elija una hora anterior u otro día.',
      inside_notice: 'Esa hora es demasiado pronto: la clínica necesita más antelación. Elija una hora posterior.',
      beyond_horizon: 'Ese día está demasiado lejos para reservar todavía. Elija un día anterior.',
      off_grid: 'Una cita no puede empezar a esa hora. Elija una de las horas ofrecidas.',
      unknown_treatment: 'Ese tratamiento ya no se ofrece. Elija otro, o «Aún no lo sé».',
      unknown_dentist: 'Ya no se puede reservar con ese dentista. Elija otro, o «Cualquiera».',
      inside_change_window: 'La cita está ya demasiado cerca para cambiarla en línea.',
      move_not_offered: 'La clínica no acepta en línea solicitudes de otro horario.',
      already_cancelled: 'Esta cita ya está cancelada.',
      appointment_completed: 'Esta cita ya se realizó.',
    },
    errRefused: 'La clínica no pudo aceptar esta reserva. Revise sus opciones o llame a la clínica.',
    errSlotTaken: 'Esa hora se acaba de ocupar. Elija otra hora u otro dentista.',
    errRateLimited: 'Demasiados intentos. Espere unos minutos y vuelva a intentarlo.',
    errRateLimitedIn: (minutes) => `Demasiados intentos. Vuelva a intentarlo dentro de ${minutes === 1 ? '1 minuto' : `${minutes} minutos`}.`,
    errOutcomeUnknown:
      'El sistema de la clínica tarda en responder, así que no pudimos confirmar su reserva. Vuelva a intentarlo en un momento: sus datos se conservan y no se reservará dos veces.',
  },
  nl: {
    refusal: {
      in_past: 'Die tijd is al voorbij. Kies een latere.',
      closed_day: 'De praktijk is die dag gesloten. Kies een andere dag.',
      outside_hours: 'De praktijk is op die tijd niet open. Kies een andere tijd.',
      ends_after_closing: 'De behandeling past op die tijd niet binnen de openingstijden. Kies een eerdere tijd of een andere dag.',
      inside_notice: 'Die tijd is te snel: de praktijk heeft meer voorbereidingstijd nodig. Kies een latere tijd.',
      beyond_horizon: 'Die dag ligt te ver vooruit om al te boeken. Kies een eerdere dag.',
      off_grid: 'Op die tijd kan geen afspraak beginnen. Kies een van de aangeboden tijden.',
      unknown_treatment: 'Die behandeling wordt niet meer aangeboden. Kies een andere, of „Weet ik nog niet”.',
      unknown_dentist: 'Bij die tandarts kan niet meer geboekt worden. Kies een ander, of „Maakt niet uit”.',
      inside_change_window: 'De afspraak is nu te dichtbij om online te wijzigen.',
      move_not_offered: 'De praktijk neemt aanvragen voor een ander tijdstip niet online aan.',
      already_cancelled: 'Deze afspraak is al geannuleerd.',
      appointment_completed: 'Deze afspraak heeft al plaatsgevonden.',
    },
    errRefused: 'De praktijk kon deze boeking niet aannemen. Controleer uw keuzes, of bel de praktijk.',
    errSlotTaken: 'Die tijd is net bezet. Kies een andere tijd of tandarts.',
    errRateLimited: 'Te veel pogingen. Wacht een paar minuten en probeer het opnieuw.',
    errRateLimitedIn: (minutes) => `Te veel pogingen. Probeer het over ${minutes === 1 ? '1 minuut' : `${minutes} minuten`} opnieuw.`,
    errOutcomeUnknown:
      'Het systeem van de praktijk reageert traag, dus we konden uw boeking niet bevestigen. Probeer het zo opnieuw: uw gegevens blijven bewaard en er wordt niet dubbel geboekt.',
  },
  ar: {
    refusal: {
      in_past: 'هذا الوقت قد مضى. يُرجى اختيار وقت لاحق.',
      closed_day: 'العيادة مغلقة في ذلك اليوم. يُرجى اختيار يوم آخر.',
      outside_hours: 'العيادة غير مفتوحة في ذلك الوقت. يُرجى اختيار وقت آخر.',
      ends_after_closing: 'لا يتّسع العلاج لساعات العمل في ذلك الوقت. يُرجى اختيار وقت أبكر أو يوم آخر.',
      inside_notice: 'هذا الوقت قريب جدًا: تحتاج العيادة إلى مهلة أطول. يُرجى اختيار وقت لاحق.',
      beyond_horizon: 'هذا اليوم بعيد جدًا عن الحجز الآن. يُرجى اختيار يوم أقرب.',
      off_grid: 'لا يمكن أن يبدأ موعد في هذا الوقت. يُرجى اختيار أحد الأوقات المعروضة.',
      unknown_treatment: 'لم يعد هذا العلاج متاحًا. يُرجى اختيار غيره، أو «لست متأكدًا بعد».',
      unknown_dentist: 'لم يعد الحجز لدى هذا الطبيب ممكنًا. يُرجى اختيار غيره، أو «أي طبيب».',
      inside_change_window: 'أصبح الموعد قريبًا جدًا لتغييره عبر الإنترنت.',
      move_not_offered: 'لا تقبل العيادة طلبات تغيير الوقت عبر الإنترنت.',
      already_cancelled: 'هذا الموعد ملغى بالفعل.',
      appointment_completed: 'لقد تمّ هذا الموعد بالفعل.',
    },
    errRefused: 'تعذّر على العيادة قبول هذا الحجز. يُرجى مراجعة اختياراتك أو الاتصال بالعيادة.',
    errSlotTaken: 'حُجز هذا الوقت للتو. يُرجى اختيار وقت أو طبيب آخر.',
    errRateLimited: 'محاولات كثيرة جدًا. انتظر بضع دقائق ثم أعد المحاولة.',
    errRateLimitedIn: (minutes) => `محاولات كثيرة جدًا. أعد المحاولة بعد ${minutes === 1 ? 'دقيقة واحدة' : minutes === 2 ? 'دقيقتين' : minutes <= 10 ? `${minutes} دقائق` : `${minutes} دقيقة`}.`,
    errOutcomeUnknown:
      'يتأخر نظام العيادة في الرد، لذا لم نتمكن من تأكيد حجزك. أعد المحاولة بعد لحظة: بياناتك محفوظة، ولن يُحجز الموعد مرتين.',
  },
};
