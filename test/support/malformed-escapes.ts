import { randomUUID } from 'node:crypto';

/**
 * Percent-escapes decodeURIComponent refuses: a lead byte alone, a bare `%`,
 * digits that are not hex, a lead byte followed by no continuation byte, and
 * an encoded UTF-16 surrogate (not UTF-8 at all).
 */
export const MALFORMED_ESCAPES = ['%E0', '%', '%ZZ', '%C3%28', '%ED%A0%80'] as const;

/** A request with a malformed escape in its path, and what its answer may be. */
export interface MalformedRequest {
  method: string;
  path: string;
  /** 400 when a route's parameter holds the escape, 404 when no route answers the path. */
  expected: 400 | 404;
}

/** Route paths as OpenAPI writes them (`/treatments/{id}`) in Express's spelling (`/treatments/:id`). */
export const expressPath = (openApiPath: string) => openApiPath.replace(/\{(\w+)\}/g, ':$1');

/** A route path as a pattern: each parameter one non-empty segment, any letter case, as Express matches it. */
const patternOf = (routePath: string) =>
  new RegExp(`^${routePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}/?$`, 'i');

/**
 * For each route (path and methods, e.g. from the app's router): every
 * parameter replaced by each malformed escape; on a path without parameters,
 * each escape as a segment past it, and glued to its end. 400 when a route
 * with a parameter matches the path, whatever its method (its parameter holds
 * the escape), else 404.
 */
export function malformedRequests(routes: Iterable<[path: string, methods: string[]]>): MalformedRequest[] {
  const all = [...routes];
  // Express's router matches a layer's path, decoding its parameters, before it looks at the method.
  const withParameters = all.filter(([path]) => path.includes(':')).map(([path]) => patternOf(path));
  const expectedFor = (path: string): 400 | 404 => (withParameters.some((pattern) => pattern.test(path)) ? 400 : 404);
  // By method and path: two routes (`/treatments`, `/treatments/:id`) may give the same request.
  const requests = new Map<string, MalformedRequest>();
  for (const [path, methods] of all) {
    for (const method of methods.filter((name) => name !== 'HEAD' && name !== 'OPTIONS')) {
      for (const escape of MALFORMED_ESCAPES) {
        const paths = path.includes(':') ? [path.replace(/:\w+/g, escape)] : path === '/' ? [] : [`${path}/${escape}`, `${path}${escape}`];
        for (const malformed of paths) requests.set(`${method} ${malformed}`, { method, path: malformed, expected: expectedFor(malformed) });
      }
    }
  }
  return [...requests.values()];
}

/** What a request got: its status, its body and the request id it was sent with (to find its log lines). */
export interface MalformedAnswer extends MalformedRequest {
  status: number;
  body: unknown;
  id: string;
}

/** Sends each request (a JSON `{}` body with a POST) with `headers` and an X-Request-Id of its own. */
export async function send(baseUrl: string, requests: MalformedRequest[], headers: Record<string, string> = {}): Promise<MalformedAnswer[]> {
  const answers: MalformedAnswer[] = [];
  for (const request of requests) {
    const id = randomUUID();
    const res = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers: { ...headers, 'x-request-id': id, ...(request.method === 'POST' ? { 'content-type': 'application/json' } : {}) },
      ...(request.method === 'POST' ? { body: '{}' } : {}),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: the assertion on the body shows it.
    }
    answers.push({ ...request, status: res.status, body, id });
  }
  return answers;
}
