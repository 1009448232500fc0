import { Router, type RequestHandler } from 'express';
import { sendError } from '../../platform/error-body.js';

/** What router 2.3's `listRoutes()` gives for one layer (Express 5's Router; not in @types/express yet). */
interface ListedRoute {
  path: string | RegExp;
  /** The route's methods in upper case, HEAD added for GET; undefined for a mounted router. */
  methods?: string[];
  router?: unknown;
}

function listRoutes(router: unknown): ListedRoute[] {
  const list = (router as { listRoutes?: () => ListedRoute[] }).listRoutes;
  if (typeof list !== 'function') throw new Error('allowedMethods needs router.listRoutes() (Express 5 with router 2.3 or later)');
  return list.call(router);
}

const join = (prefix: string, path: string) => (prefix + (path === '/' ? '' : path)).replace(/\/{2,}/g, '/') || '/';

/**
 * Every path the routers answer, with its methods, read from the routers
 * themselves (and the routers they mount), so a route is declared only once.
 */
export function knownPaths(router: Router): Map<string, string[]> {
  const paths = new Map<string, string[]>();
  const walk = (current: unknown, prefix: string) => {
    for (const route of listRoutes(current)) {
      if (typeof route.path !== 'string') throw new Error('allowedMethods: route paths must be strings');
      const path = join(prefix, route.path);
      if (route.router) walk(route.router, path);
      if (route.methods) paths.set(path, [...new Set([...(paths.get(path) ?? []), ...route.methods])]);
    }
  };
  walk(router, '');
  return paths;
}

/**
 * For a known path asked with a method it does not take: 405 method_not_allowed
 * with `Allow` and the spec's error body; for OPTIONS: 204 with `Allow`. Mounted
 * before the routes, so before credentials are checked: which methods a path
 * takes is public (the OpenAPI document lists them), and a client learns it
 * without a token. Paths that no route answers fall through (404, or 401 under a
 * resource prefix without credentials).
 *
 * `check` goes in front of the routes; `learnFrom` reads them once they are
 * all mounted and gives `check` one route per known path, so that Express's
 * router matches a request's path as it does for the routes themselves. Were
 * two known paths to match one request (none do), the first would decide.
 */
export class AllowedMethods {
  readonly #router = Router();

  learnFrom(routes: Router): void {
    for (const [path, methods] of knownPaths(routes)) {
      // .all(): every method is taken.
      if (!methods.includes('*')) this.#router.all(path, refuseOtherMethods(methods));
    }
  }

  // A plain function, not the router itself, so that knownPaths (listRoutes) does not take its routes for the app's.
  readonly check: RequestHandler = (req, res, next) => this.#router(req, res, next);
}

/** Passes on a request with one of `methods`; answers any other. */
function refuseOtherMethods(methods: string[]): RequestHandler {
  const allow = [...methods, 'OPTIONS'].join(', ');
  return (req, res, next) => {
    if (methods.includes(req.method)) {
      next();
      return;
    }
    res.set('Allow', allow);
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    sendError(res, 'method_not_allowed', `${req.method} is not allowed on this path; it takes ${allow}`);
  };
}
