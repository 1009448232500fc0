/**
 * Day names used as opening_hours keys, in the order a week is shown. Kept
 * free of zod so the widget can share the opening-hours rules without
 * bundling the schema library.
 */
export const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export type DayName = (typeof DAY_NAMES)[number];
