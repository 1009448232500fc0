import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The walls between the parts are lint rules (eslint.config.js); `npm test`
 * runs eslint over the tree. These tests show each wall refuses what it must
 * and lets through what it may, by linting one import as if it stood in a
 * real file of that part.
 */
const eslint = new ESLint({
  cwd: process.cwd(),
  // The walls need no type information: without it a lint takes milliseconds instead of building the
  // whole TypeScript program, and the type-aware rules that need it are off here.
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
});

/** The rules that hold the walls: imports, and platform/'s ignorance of the services' paths. */
const WALL_RULES = new Set(['@typescript-eslint/no-restricted-imports', 'no-restricted-syntax']);

async function wallErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath });
  return (result?.messages ?? [])
    .filter((message) => WALL_RULES.has(message.ruleId ?? ''))
    .map((message) => message.message);
}

describe('the walls between the parts', () => {
  it.each([
    ['bff/ importing server/', 'bff/app.ts', "import { createApp } from '../server/app.js';"],
    ['widget/ importing server/', 'widget/api.ts', "import { openDatabase } from '../server/db/connection.js';"],
    ['widget/ importing platform/', 'widget/api.ts', "import { systemClock } from '../platform/clock.js';"],
    ['widget/ importing bff/', 'widget/api.ts', "import { createBff } from '../bff/app.js';"],
    ['widget/ importing zod', 'widget/api.ts', "import { z } from 'zod';"],
    ['widget/ importing a contract schema as a value', 'widget/api.ts', "import { BookAppointmentRequest } from '../contract/index.js';"],
    ['widget/ importing the BFF schemas as a value', 'widget/api.ts', "import { BffBookingResponse } from '../contract/bff.js';"],
    ['widget/ importing the integrators\' sentences for refusals', 'widget/booking/failure-text.ts', "import { bookingTimeSentence } from '../../contract/rules/booking-time-words.js';"],
    ['contract/rules/ importing zod', 'contract/rules/patterns.ts', "import { z } from 'zod';"],
    ['contract/rules/ importing the zod contract', 'contract/rules/patterns.ts', "import { ErrorBody } from '../common.js';"],
    ['contract/ importing platform/', 'contract/common.ts', "import { sendError } from '../platform/error-body.js';"],
    ['contract/ importing server/', 'contract/common.ts', "import { Stores } from '../server/db/stores.js';"],
    ['platform/ importing server/', 'platform/serve.ts', "import { createApp } from '../server/app.js';"],
    ['platform/ importing bff/', 'platform/serve.ts', "import { createBff } from '../bff/app.js';"],
    ["bff/http/ importing a room of the BFF", 'bff/http/error-handler.ts', "import { refusedForTime } from '../booking/booking-refused.js';"],
    ["bff/config.ts importing a room that reads it", 'bff/config.ts', "import { SiteSecrets } from './sites/site-secrets.js';"],
    ["platform/ importing the BFF's paths", 'platform/fast-http/request-logger.ts', "import { STATUS_PATH } from '../../contract/rules/bff-api.js';"],
    ["platform/ naming a service's API", 'platform/fast-http/request-logger.ts', "const API = '/api';"],
    ["platform/ naming a site's mount in a template", 'platform/fast-http/request-logger.ts', 'const mount = (id: string) => `/s/${id}`;'],
    ["platform/ matching the status lookup", 'platform/fast-http/request-logger.ts', 'const LOOKUP = /appointments\\/status\\//i;'],
  ])('refuses %s', async (_name, filePath, code) => {
    expect(await wallErrors(filePath, code)).toHaveLength(1);
  });

  it.each([
    ['widget/ importing contract/rules/ at run time', 'widget/api.ts', "import { LIMITS } from '../contract/rules/limits.js';"],
    ['widget/ importing the booking window\'s codes', 'widget/booking/failure-text.ts', "import { checkBookingWindow } from '../../contract/rules/booking-window.js';"],
    ['widget/ importing contract types', 'widget/api.ts', "import type { Treatment } from '../contract/index.js';"],
    ['bff/http/ importing the upstream errors it answers', 'bff/http/error-handler.ts', "import { UpstreamBusy } from '../upstream/errors.js';"],
    ['bff/config.ts importing the parsers of its settings', 'bff/config.ts', "import { decodeSecretsKey } from './secrets-key.js';\nimport { parseOutboundAllowlist } from './outbound/outbound-allowlist.js';"],
    ['bff/ importing contract/ and platform/', 'bff/app.ts', "import { ErrorBody } from '../contract/index.js';\nimport { serve } from '../platform/serve.js';"],
    ['platform/ importing contract/', 'platform/serve.ts', "import { ApiError } from '../contract/index.js';"],
    ['platform/ importing a library whose name ends in /api', 'platform/tracing/tracer.ts', "import { trace } from '@opentelemetry/api';"],
    ['contract/ importing contract/rules/', 'contract/common.ts', "import { LIMITS } from './rules/limits.js';"],
    ['server/ importing everything it uses', 'server/app.ts', "import { ApiError } from '../contract/index.js';\nimport { serve } from '../platform/serve.js';"],
  ])('allows %s', async (_name, filePath, code) => {
    expect(await wallErrors(filePath, code)).toEqual([]);
  });
});
