import { BookingRefused } from '../../contract/bff.js';
import { bookingTimeSentence, type BookingTimeRefusal } from '../../contract/rules/booking-time-words.js';

/**
 * A start outside the booking window or the opening hours, refused with the
 * verdict's own code, in the reference server's words (the same function words both).
 */
export const refusedForTime = (refusal: BookingTimeRefusal): BookingRefused => new BookingRefused(refusal.reason, bookingTimeSentence(refusal));
