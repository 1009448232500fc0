// The booking load both bench/server.bench.mjs and bench/tricks.bench.mjs put on the server: valid
// bookings for the demo clinic, without a dentist (so no slot can conflict), each with its own name.

import { loadOptions, runPhase } from './load.mjs';

export const BOOKING_PATH = '/api/v1/appointments/book';
export const CLINIC_TIME_ZONE = 'Europe/London'; // the demo clinic's zone (server/demo/demo-clinic.ts)
export const BOOKING_TIME = '10:00'; // inside the demo clinic's Monday hours (08:00-18:00)

/** Today's YYYY-MM-DD in the clinic's time zone. */
function clinicToday(now = new Date()) {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: CLINIC_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/**
 * The Monday of next week in the clinic's calendar, or of the week after when next week's Monday is
 * less than 2 days away (today is Sunday): always 2 to 8 days ahead, so never in the past, well within
 * the 365-day horizon and on a day the demo clinic is open.
 */
export function nextBookableMonday(today = clinicToday()) {
  const [year, month, day] = today.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  let daysAhead = (8 - date.getUTCDay()) % 7 || 7; // Sunday 0 -> 1, Monday 1 -> 7, Saturday 6 -> 2
  if (daysAhead < 2) daysAhead += 7;
  date.setUTCDate(date.getUTCDate() + daysAhead);
  return date.toISOString().slice(0, 10);
}

/** A valid booking without doctor_id (so no slot can conflict); the name varies per request. */
function bookingBody(appointmentDate, sequence) {
  return JSON.stringify({
    patient_name: `Bench Patient ${sequence}`,
    patient_phone: '+44 20 7946 0000',
    appointment_date: appointmentDate,
    appointment_time: BOOKING_TIME,
  });
}

/** One booking before the load: a refusal is reported with its error_code instead of 10 s of 4xx. */
export async function checkOneBooking(baseUrl, authHeaders, appointmentDate) {
  const response = await fetch(`${baseUrl}${BOOKING_PATH}`, {
    method: 'POST',
    headers: { ...authHeaders, 'content-type': 'application/json' },
    body: bookingBody(appointmentDate, 0),
  });
  const body = await response.json();
  if (response.status !== 200) {
    throw new Error(`a sample booking for ${appointmentDate} ${BOOKING_TIME} answered ${response.status} ` +
      `${body.error_code}: ${body.message}`);
  }
}

/** autocannon options for the booking load on one server. */
export function bookingLoadOptions(baseUrl, authHeaders, appointmentDate) {
  let sequence = 0;
  return loadOptions(`${baseUrl}${BOOKING_PATH}`, {
    method: 'POST',
    headers: { ...authHeaders, 'content-type': 'application/json' },
    setupRequest: (request) => ({ ...request, body: bookingBody(appointmentDate, ++sequence) }),
  });
}

/** The booking phase against one server, alone. */
export function runBookingPhase(title, baseUrl, authHeaders, appointmentDate) {
  return runPhase(title, bookingLoadOptions(baseUrl, authHeaders, appointmentDate));
}
