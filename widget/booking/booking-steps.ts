/** The booking form's steps, in the order the patient meets them; the form shows one at a time. */
export const STEPS = ['treatment', 'dentist', 'day', 'time', 'details', 'review'] as const;
export type Step = (typeof STEPS)[number];

/** The step after this one (the review has none: it books). */
export const stepAfter = (step: Step): Step => STEPS[STEPS.indexOf(step) + 1] ?? step;

/** The step "Back" returns to (the treatment, the first, has none). */
export const stepBefore = (step: Step): Step => STEPS[STEPS.indexOf(step) - 1] ?? step;

/** A step as sessionStorage kept it: by name, or by number as drafts saved before the steps had names. */
export const storedStep = (value: unknown): Step | undefined => STEPS.find((step, i) => value === step || value === i);
