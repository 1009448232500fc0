/**
 * A refusal for a booking's treatment or dentist in the words integrators read,
 * after "Invalid request: ": the server's 400 and the BFF's say the same. Not for
 * patients (the widget words the reason codes itself, in its own languages).
 */
export const UNKNOWN_TREATMENT_SENTENCE = 'treatment_id does not name an active treatment of this clinic';
export const UNKNOWN_DENTIST_SENTENCE = 'doctor_id does not name a dentist of this clinic';
