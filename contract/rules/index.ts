/**
 * Zod-free rules that the browser shares with the services. Nothing here may
 * import zod (a lint rule holds that), so the widget's bundle stays small.
 */
export * from './appointment-status.js';
export * from './days.js';
export * from './limits.js';
export * from './clinic-time.js';
export * from './clinic-now.js';
export * from './booking-rules.js';
export * from './appointment-interval.js';
export * from './opening-hours.js';
export * from './booking-window.js';
export * from './booking-time-words.js';
export * from './booking-choice-words.js';
export * from './slots.js';
export * from './patterns.js';
export * from './patient-text.js';
export * from './theme.js';
export * from './html.js';
export * from './bff-api.js';
export * from './pictures.js';
