/**
 * The booking form's steps, in the order the patient meets them; the form shows one at a time. The day
 * and its time are one step: the calendar and the chosen day's times together, as Cal.com's booker does.
 */
export const STEPS = ['treatment', 'dentist', 'day', 'details', 'review'] as const;
export type Step = (typeof STEPS)[number];

/** The step after this one (the review has none: it books). */
export const stepAfter = (step: Step): Step => STEPS[STEPS.indexOf(step) + 1] ?? step;

/** The step "Back" returns to (the treatment, the first, has none). */
export const stepBefore = (step: Step): Step => STEPS[STEPS.indexOf(step) - 1] ?? step;

/** The steps drafts were saved with before the day and the time became one. */
const SAVED_STEPS = ['treatment', 'dentist', 'day', 'time', 'details', 'review'];

/**
 * A step as sessionStorage kept it: by name, or by number as drafts saved before the steps had names;
 * the old time step is the day step now.
 */
export const storedStep = (value: unknown): Step | undefined => {
  const name = typeof value === 'number' ? SAVED_STEPS[value] : value;
  return name === 'time' ? 'day' : STEPS.find((step) => step === name);
};
