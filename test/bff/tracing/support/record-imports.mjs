// Loaded with `node --import` before a service starts: every module of
// @opentelemetry/ that the process resolves (an import or a dynamic import)
// is appended to the file RECORD_IMPORTS names, so a test can tell which of
// them a service loaded. Resolve hooks run on a thread of their own.
import { register } from 'node:module';

register('./record-imports-hooks.mjs', import.meta.url);
