import type { ErrorRequestHandler, Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import type {
  ZodOpenApiOperationObject,
  ZodOpenApiParameters,
  ZodOpenApiPathsObject,
  ZodOpenApiResponseObject,
} from 'zod-openapi';
import { parseBody, parseParams, parseQuery } from './validation.js';

/** What a handler receives, parsed by the operation's own schemas (undefined where it declares none). */
export interface OperationInput<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
}

/**
 * One endpoint, declared once: its method and path, the schemas of what it
 * takes and answers, its place in the OpenAPI document, what runs before it
 * (limits, the JSON body reader) and its handler. The router (addOperations),
 * request validation and the OpenAPI document (openApiPaths) all read this one
 * record, so a path, a schema or an error answer is written in one place.
 */
export interface Operation<Params = unknown, Query = unknown, Body = unknown> {
  /** The OpenAPI operationId, e.g. `listTreatments`. */
  id: string;
  method: 'get' | 'post';
  /** Express's form, relative to the router it is added to: `/treatments/:id` (OpenAPI gets `/treatments/{id}`). */
  path: string;
  /** The OpenAPI text of the operation: summary, description, tags, security, deprecated. */
  docs: Omit<ZodOpenApiOperationObject, 'operationId' | 'requestParams' | 'requestBody' | 'responses'>;
  request?: {
    /** Path parameters; a value that does not parse names nothing that exists: 404 `notFound` (e.g. "Treatment not found"). */
    params?: z.ZodType<Params>;
    /** What the path parameters name, for that 404's message. */
    notFound?: string;
    /** Query parameters; a bad one is 400 validation_error naming it. */
    query?: z.ZodType<Query>;
    /** The JSON body; a bad one is 400 validation_error naming each field. Read by a `before` handler (jsonBody). */
    body?: z.ZodType<Body>;
    /** Request headers, for the document only (the handler reads them itself, e.g. Idempotency-Key). */
    headers?: ZodOpenApiParameters['header'];
  };
  /** Every answer by status code, as the document gives them. */
  responses: Record<string, ZodOpenApiResponseObject>;
  /**
   * Headers every answer carries, its errors included: set before the request
   * is parsed (e.g. `Cache-Control: no-store` on what changes from one request
   * to the next). A header that only a success carries, the handler sets.
   */
  answerHeaders?: Readonly<Record<string, string>>;
  /** Runs before the handler, in order: a rate limit, the JSON body reader. */
  before?: RequestHandler[];
  /**
   * Runs when the handler or a `before` handler fails, before the error
   * handler answers: e.g. a rate-limit hit given back for a request that
   * surely did nothing. It passes the error on.
   */
  onError?: ErrorRequestHandler;
  /** Answers the request; a thrown ApiError becomes its error body (the error handler). */
  handle(input: OperationInput<Params, Query, Body>, req: Request, res: Response): void | Promise<void>;
}

/** Declares an operation; the identity, so TypeScript infers the handler's input from the schemas. */
export function operation<Params = undefined, Query = undefined, Body = undefined>(
  declared: Operation<Params, Query, Body>,
): Operation<Params, Query, Body> {
  return declared;
}

/**
 * What an operation declares for the router, validation and the document,
 * without what runs for it: a module constant, made once and shared by every
 * app and site that serves the operation (a BFF of 1,000 sites declares each
 * operation once, not 1,000 times).
 */
export type Declaration<Params = unknown, Query = unknown, Body = unknown> = Omit<Operation<Params, Query, Body>, 'handle' | 'before' | 'onError'>;

/** Declares an operation's declaration; the identity, so TypeScript infers its input types from the schemas. */
export function declaration<Params = undefined, Query = undefined, Body = undefined>(
  declared: Declaration<Params, Query, Body>,
): Declaration<Params, Query, Body> {
  return declared;
}

/** A declared operation served by these handlers: its handler and what runs before it (or on its error). */
export function served<Params, Query, Body>(
  declared: Declaration<Params, Query, Body>,
  handlers: Pick<Operation<Params, Query, Body>, 'handle' | 'before' | 'onError'>,
): Operation<Params, Query, Body> {
  return { ...declared, ...handlers };
}

/** Any operation, whatever its input types: the lists that the router and the document read. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<any, any, any>;

/** The input of an operation that declares no params, query or body: one object for every request. */
const NOTHING_DECLARED: OperationInput<undefined, undefined, undefined> = Object.freeze({
  params: undefined,
  query: undefined,
  body: undefined,
});

/**
 * The handler Express runs for an operation: its answer headers, then parse
 * what it declares, then answer. The handler's promise goes straight back to
 * Express (which passes a rejection to the error handler), and a parse error
 * thrown here does too: no wrapper of our own on the way of every request.
 */
export function handlerOf(op: AnyOperation): RequestHandler {
  const { params, query, body, notFound = 'Resource' } = op.request ?? {};
  const headers = Object.entries(op.answerHeaders ?? {});
  const setHeaders = (res: Response) => {
    for (const [name, value] of headers) res.setHeader(name, value);
  };
  if (!params && !query && !body) {
    if (headers.length === 0) return (req, res) => op.handle(NOTHING_DECLARED, req, res);
    return (req, res) => {
      setHeaders(res);
      return op.handle(NOTHING_DECLARED, req, res);
    };
  }
  return (req, res) => {
    setHeaders(res);
    return op.handle(
      {
        params: params ? parseParams(params, req.params, notFound) : undefined,
        query: query ? parseQuery(query, req.query) : undefined,
        body: body ? parseBody(body, req.body) : undefined,
      },
      req,
      res,
    );
  };
}

/** Adds each operation to `router` as its method, path, `before` handlers, handler and `onError`. */
export function addOperations(router: Router, operations: readonly AnyOperation[]): void {
  for (const op of operations) router[op.method](op.path, ...(op.before ?? []), handlerOf(op), ...(op.onError ? [op.onError] : []));
}

/** `/treatments/:id` as OpenAPI writes it: `/treatments/{id}`. */
export const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

/**
 * The `paths` object of an OpenAPI document for these operations, each under
 * `prefix` + its path: the same records the router was given.
 */
export function openApiPaths(operations: readonly AnyOperation[], prefix = ''): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of operations) {
    const { params, query, headers, body } = op.request ?? {};
    const requestParams: ZodOpenApiParameters = {
      ...(params ? { path: params as ZodOpenApiParameters['path'] } : {}),
      ...(query ? { query: query as ZodOpenApiParameters['query'] } : {}),
      ...(headers ? { header: headers } : {}),
    };
    const item = (paths[`${prefix}${openApiPath(op.path)}`] ??= {});
    item[op.method] = {
      operationId: op.id,
      ...op.docs,
      ...(Object.keys(requestParams).length > 0 ? { requestParams } : {}),
      ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
      responses: op.responses,
    };
  }
  return paths;
}
