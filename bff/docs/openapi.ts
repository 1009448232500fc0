import { createDocument, type ZodOpenApiObject } from 'zod-openapi';
import { openApiPaths, type AnyOperation } from '../../platform/operation.js';
import { TAGS } from '../http/answers.js';

/**
 * The server URL: an absolute URL with a variable, not one built from the
 * serving request, for the reasons given in server/docs/openapi.ts (a cached,
 * static document; no Host header trusted). Its default is where `npm start`
 * runs the BFF; the relative entry is the BFF that served this document.
 */
const servers = [
  {
    url: '{origin}/api',
    description: 'A clinic-booking BFF; by default the one `npm start` runs.',
    variables: {
      origin: { default: 'http://127.0.0.1:8080', description: 'Scheme, host and port of the BFF.' },
    },
  },
  { url: '/api', description: 'The BFF that served this document.' },
];

/** Everything of the document but its paths, which come from the operations the BFF serves. */
const frame = {
  openapi: '3.1.0',
  info: {
    title: 'Clinic booking BFF API',
    version: '1.0.0',
    description:
      'The public API the <clinic-booking> widget calls: the clinic API v1 content, sanitised and cached, and booking ' +
      'with an opaque reference instead of the sequential appointment_id. Public: no credentials; CORS ' +
      'limits which sites may call it from a browser. Every error answer has the body BffErrorBody.',
    license: { name: 'MIT', identifier: 'MIT' },
    contact: { name: 'clinic-booking maintainers' },
  },
  servers,
  tags: [...TAGS],
  // Public: the BFF holds the clinic API credentials, browsers send none.
  security: [],
} satisfies Omit<ZodOpenApiObject, 'paths'>;

/** The OpenAPI 3.1 document of the BFF's /api: the frame above and each operation, as declared (contract/bff.ts schemas). */
export function buildBffOpenApiDocument(operations: readonly AnyOperation[]) {
  return createDocument({ ...frame, paths: openApiPaths(operations) });
}
