// Bookings through the BFF (POST /api/appointments/book) that are each valid and distinct: every one its own
// dentist, day and start inside the demo clinic's opening hours, so none meets a taken slot (409) however
// many the benchmark makes. bench/support/bookings.mjs books upstream without a dentist, where no slot can
// conflict; the BFF instead gives a booking without one a dentist and refuses a start it knows is taken.

import { loadOptions } from './load.mjs';
import { CLINIC_TIME_ZONE } from './bookings.mjs';

export const BFF_BOOKING_PATH = '/api/appointments/book';
/** An appointment without a treatment holds its dentist this long (the demo clinic's and the BFF's default). */
const APPOINTMENT_MINUTES = 30;
/** The first day booked: far enough ahead that no start is inside the clinic's notice (120 minutes). */
const FIRST_DAY_AHEAD = 2;
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The clinic's opening hours and dentist ids, as the BFF answers them. */
export async function readClinic(bffBase) {
  const read = async (path) => {
    const response = await fetch(`${bffBase}/api${path}`);
    if (response.status !== 200) throw new Error(`GET /api${path} answered ${response.status}`);
    return response.json();
  };
  const [website, dentists] = await Promise.all([read('/website'), read('/dentists')]);
  return { openingHours: website.site.opening_hours, dentistIds: dentists.data.map((dentist) => dentist.doctor_id) };
}

const minutesOf = (time) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const timeOf = (minutes) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Today's date in the clinic's zone, as a UTC midnight Date (for day arithmetic only). */
function clinicToday(now = new Date()) {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: CLINIC_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  return new Date(`${today}T00:00:00Z`);
}

/**
 * Every free (day, start, dentist) of the clinic from FIRST_DAY_AHEAD days on for `days` days, in order:
 * day by day, start by start (every APPOINTMENT_MINUTES, so no two overlap), each start for every
 * dentist. next() answers the next one and throws once all are used: a benchmark that needs more must
 * say so rather than measure refusals.
 */
export function createSlotSequence({ openingHours, dentistIds, days }) {
  const first = clinicToday();
  first.setUTCDate(first.getUTCDate() + FIRST_DAY_AHEAD);
  function* slots() {
    for (let offset = 0; offset < days; offset++) {
      const day = new Date(first);
      day.setUTCDate(day.getUTCDate() + offset);
      const hours = openingHours[DAY_NAMES[day.getUTCDay()]];
      if (!hours || hours.is_closed) continue;
      const date = day.toISOString().slice(0, 10);
      for (let start = minutesOf(hours.open); start + APPOINTMENT_MINUTES <= minutesOf(hours.close); start += APPOINTMENT_MINUTES) {
        for (const doctorId of dentistIds) yield { appointment_date: date, appointment_time: timeOf(start), doctor_id: doctorId };
      }
    }
  }
  const capacity = [...slots()].length;
  const iterator = slots();
  let used = 0;
  return {
    capacity,
    get used() {
      return used;
    },
    next() {
      const { value, done } = iterator.next();
      if (done) throw new Error(`all ${capacity} distinct slots of the next ${days} days are booked: the benchmark needs fewer bookings`);
      used++;
      return value;
    },
  };
}

/** A valid booking body for `slot`; each with a name of its own (never printed). */
export function bookingBody(slot, sequence) {
  return JSON.stringify({ patient_name: `Bench Patient ${sequence}`, patient_phone: '+44 20 7946 0000', ...slot });
}

/** Books one slot through the BFF (no Origin header, as a server-side caller); answers the status code. */
export async function bookThroughBff(bffBase, slots, sequence) {
  const response = await fetch(`${bffBase}${BFF_BOOKING_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: bookingBody(slots.next(), sequence),
  });
  await response.arrayBuffer();
  return response.status;
}

/**
 * `count` bookings through the BFF, `concurrency` at a time; answers how many of each status code
 * ({ '200': n, … }).
 */
export async function bookMany(bffBase, slots, count, { concurrency = 10, firstSequence = 1 } = {}) {
  const statusCodes = {};
  let sequence = firstSequence;
  const end = firstSequence + count;
  const worker = async () => {
    while (sequence < end) {
      const status = await bookThroughBff(bffBase, slots, sequence++);
      statusCodes[status] = (statusCodes[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return statusCodes;
}

/** autocannon options for bookings through the BFF, each request the next slot of `slots`. */
export function bffBookingLoadOptions(bffBase, slots) {
  let sequence = 0;
  return loadOptions(`${bffBase}${BFF_BOOKING_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    setupRequest: (request) => ({ ...request, body: bookingBody(slots.next(), ++sequence) }),
  });
}
