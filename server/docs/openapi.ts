import { createDocument, type ZodOpenApiObject } from 'zod-openapi';
import { openApiPaths, type AnyOperation } from '../../platform/operation.js';
import { credentials, TAGS } from '../http/answers.js';

/**
 * The server URL. An absolute URL with a variable rather than one built from
 * the serving request: the document is generated once and sent with
 * `Cache-Control: public`, so a Host-derived URL would let a forged Host header
 * poison shared caches, and behind a proxy (trust proxy off) would name the wrong
 * scheme. Tools that need an absolute base (Prism, openapi-typescript, code
 * generators) resolve the variable's default, the address `npm start` listens on;
 * Swagger UI lets a reader edit it. The relative entry is the server that served
 * this document, for readers of the docs page on a deployment.
 */
const servers = [
  {
    url: '{origin}/api/v1',
    description: 'A Clinic Integration API server; by default the one `npm start` runs.',
    variables: {
      origin: {
        default: 'http://127.0.0.1:4000',
        description: 'Scheme, host and port of the server (its PUBLIC_URL).',
      },
    },
  },
  { url: '/api/v1', description: 'The server that served this document.' },
];

/**
 * The document's frame: what it says of the API as a whole. Every path and
 * operation comes from the operations the app serves (openApiPaths).
 */
const frame = {
  openapi: '3.1.0',
  info: {
    title: 'Clinic Integration REST API',
    version: '1.0.0',
    description:
      'Reference implementation of the Clinic Integration REST API v1. Exchange an app key and secret for a one-hour token at POST /granttoken, then send x-app-key and ' +
      'Authorization: Bearer <token> with every other request. Every error answer has the body ErrorBody.',
    license: { name: 'MIT', identifier: 'MIT' },
    contact: { name: 'clinic-booking maintainers' },
  },
  servers,
  tags: [...TAGS],
  // Every operation needs both headers; /granttoken alone opts out. Operations
  // restate it so each is self-describing in the UI and in generated clients.
  security: credentials,
  components: {
    securitySchemes: {
      appKey: {
        type: 'apiKey',
        in: 'header',
        name: 'x-app-key',
        description: 'The application key the access token was issued to (spec 5).',
      },
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description: 'The access_token from POST /granttoken; it lives expires_in seconds (3600).',
      },
    },
  },
} satisfies ZodOpenApiObject;

/** The OpenAPI 3.1 document of /api/v1's `operations`, generated from their declarations and the contract's zod schemas. */
export function buildOpenApiDocument(operations: readonly AnyOperation[]) {
  return createDocument({ ...frame, paths: openApiPaths(operations) });
}
