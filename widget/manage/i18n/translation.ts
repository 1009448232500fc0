/** Why the actions are closed, besides the change window (which comes with the clinic's phone). */
export type ClosedReason = 'in_past' | 'appointment_completed' | 'already_cancelled';

/**
 * The manage view's own strings, loaded with it (English in its chunk, each other language a small
 * pack of its own); what it shares with the rest of the widget (Back, Close, the card's labels, the
 * errors) it takes from the widget's Translation.
 */
export interface ManageTranslation {
  requestCancel: string;
  /** The confirm step of a cancellation: its heading, what happens, and its two answers. */
  confirmTitle: string;
  confirmText: string;
  confirmYes: string;
  keep: string;
  requestMove: string;
  /** Above the calendar: how many starts may be wished, most wished first. */
  moveHint: (max: number) => string;
  /** The list of wished starts (chips). */
  yourTimes: string;
  /** The list while it is empty. */
  noStartYet: string;
  /** A chip's remove button, with the start it removes. */
  remove: (start: string) => string;
  /** Announced as a start is added or removed. */
  added: (start: string, n: number, max: number) => string;
  removed: (start: string) => string;
  /** All the wished starts are chosen. */
  full: (max: number) => string;
  message: string;
  send: string;
  sending: string;
  errNoStart: string;
  /** The outcomes, with the day the request was taken. */
  cancelRequested: (date: string) => string;
  moveRequested: (date: string) => string;
  requestedNote: string;
  timesAsked: string;
  cancelled: string;
  bookNew: string;
  /** The .ics that removes the calendar entry of the booking (METHOD:CANCEL). */
  removeFromCalendar: string;
  /** Inside the clinic's change window: how many hours before the start changes close online. */
  insideWindow: (hours: number) => string;
  /** Before the clinic's phone as a link, when nothing (or not a move) can be asked online. */
  callToChange: string;
  moveByPhone: string;
  closed: Record<ClosedReason, string>;
  /** The manage link, its hint, and its copy button. */
  link: string;
  linkHint: string;
  copyLink: string;
  /** A wished start: its day and time. */
  startAt: (date: string, time: string) => string;
}
