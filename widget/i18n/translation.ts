import type { AppointmentStatus } from '../../contract/index.js';

/** Every string the widget shows. English is complete; each other language implements all of it. */
export interface Translation {
  loading: string;
  loadError: string;
  retry: string;
  /** The site is suspended (403 site_suspended): followed by the clinic's phone, or the page's fallback. */
  suspended: string;
  nothingYet: string;

  treatmentsHeading: string;
  dentistsHeading: string;
  bookingHeading: string;
  statusHeading: string;
  servicesHeading: string;
  teamHeading: string;
  testimonialsHeading: string;
  faqHeading: string;
  hoursHeading: string;
  contactHeading: string;
  followUs: string;

  closed: string;
  today: string;
  phone: string;
  email: string;
  whatsapp: string;
  map: string;
  address: string;

  minutes: (count: number) => string;
  yearsExperience: (count: number) => string;
  consultationFee: string;
  bookThis: (name: string) => string;
  /** Captions under stat_years, stat_support and stat_success. */
  stats: [string, string, string];

  patientName: string;
  patientPhone: string;
  patientAddress: string;
  date: string;
  time: string;
  dentist: string;
  treatment: string;
  note: string;
  anyDentist: string;
  noTreatment: string;
  requiredMark: string;
  optional: string;
  privacyConsent: string;
  privacyLink: string;
  submit: string;
  /** "Step 2 of 6", before each step's heading. */
  step: (n: number, of: number) => string;
  details: string;
  review: string;
  back: string;
  next: string;
  prevMonth: string;
  nextMonth: string;
  /** Why a month arrow leads nowhere: before the first day, and after the booking horizon (its days). */
  noEarlier: string;
  noLater: (days: number) => string;
  /** Why a day cannot be chosen (besides `closed`). */
  dayPast: string;
  dayTooFar: string;
  dayTooShort: string;
  /** A day with no free start left as far as the BFF knows (its day counts). */
  dayFull: string;
  /** The day-and-time step's heading. */
  when: string;
  /** The headings of the times before 12:00, from 12:00 and from 17:00. */
  periods: [morning: string, afternoon: string, evening: string];
  /** Under each of them: how many of its times are free. */
  free: (count: number) => string;
  taken: string;
  noTimes: string;
  nearest: string;
  sending: string;

  errRequired: string;
  errPhone: string;
  /** A patient text holds control, bidi-control or broken characters (contract/rules/patient-text.ts). */
  errHiddenCharacters: string;
  errConsent: string;
  /**
   * The patient's own choice, apart from the privacy consent and never ticked for them: a
   * confirmation and a reminder by e-mail (shown only where the site sends e-mail); `email` labels its field.
   */
  emailOptIn: string;
  /** Not one e-mail address (the rule the BFF checks, contract/rules/patterns.ts). */
  errEmail: string;
  errSummary: (count: number) => string;

  bookedTitle: string;
  /** The booked time on the confirmation, said to be the clinic's (the patient may be elsewhere): "2:30 PM (clinic time)". */
  clinicTime: (time: string) => string;
  referenceLabel: string;
  keepReference: string;
  /** The confirmation of a booking whose patient asked for e-mail: where it goes. */
  confirmationTo: (email: string) => string;
  bookAnother: string;
  copy: string;
  copied: string;
  addToCalendar: string;
  changeByPhone: string;
  /** Opens a booking's manage view (the confirmation, the status card); the view's own words are in manage/i18n/. */
  manage: string;

  /**
   * Before the clinic's phone number as a link, after a 429. (The sentences for the BFF's refusals
   * and other rare answers are in failures.ts, fetched when one comes.)
   */
  callClinic: string;
  errNetwork: string;
  errGeneric: string;
  /** The clinic's system is busy (503 upstream_busy): try again in this many seconds (its Retry-After). */
  errBusy: (seconds: number) => string;

  referenceInput: string;
  lookUp: string;
  statusLabel: string;
  nameLabel: string;
  dateLabel: string;
  timeLabel: string;
  statusNotFound: string;
  /** A reference not in the shape of one (checked before asking the BFF). */
  errReference: string;
  /** Each status of the contract in words; the compiler asks for a new one here when the contract adds it. */
  statusValue: (status: AppointmentStatus) => string;

  openBooking: string;
  close: string;
}
