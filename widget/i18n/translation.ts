import type { AppointmentStatus } from '../../contract/index.js';

/** Every string the widget shows. English is complete; each other language implements all of it. */
export interface Translation {
  loading: string;
  loadError: string;
  retry: string;
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
  hoursHint: (open: string, close: string) => string;
  closedHint: string;
  privacyConsent: string;
  privacyLink: string;
  submit: string;
  sending: string;

  errRequired: string;
  errPhone: string;
  /** A patient text holds control, bidi-control or broken characters (contract/rules/patient-text.ts). */
  errHiddenCharacters: string;
  errDatePast: string;
  errClosedDay: (day: string) => string;
  errTimeOutside: (open: string, close: string) => string;
  errConsent: string;
  errSummary: (count: number) => string;

  bookedTitle: string;
  bookedSummary: (date: string, time: string) => string;
  referenceLabel: string;
  keepReference: string;
  bookAnother: string;

  errValidation: (message: string) => string;
  errSlotTaken: string;
  errRateLimited: string;
  errNetwork: string;
  errGeneric: string;
  /** The clinic's system is busy (503 upstream_busy): try again in this many seconds (its Retry-After). */
  errBusy: (seconds: number) => string;
  /** A booking the clinic's system did not confirm in time, even after re-sending it: it may or may not be booked. */
  errOutcomeUnknown: string;

  referenceInput: string;
  lookUp: string;
  statusLabel: string;
  nameLabel: string;
  dateLabel: string;
  timeLabel: string;
  statusNotFound: string;
  /** Each status of the contract in words; the compiler asks for a new one here when the contract adds it. */
  statusValue: (status: AppointmentStatus) => string;

  openBooking: string;
  close: string;
}
