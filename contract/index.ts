/** The Clinic Integration REST API v1 in zod: one source of truth for server, BFF and widget. */
export * from './rules/limits.js';
export * from './common.js';
export * from './auth.js';
export * from './organization.js';
export * from './website.js';
export * from './treatments.js';
export * from './dentists.js';
export * from './appointments.js';
