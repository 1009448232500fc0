const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The key of a literal path: lower case, without a trailing slash. */
const literalKey = (path: string) => {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
};

/** A route path with `:name` parameters, as a pattern and the names of its groups. */
interface Pattern {
  regexp: RegExp;
  names: string[];
}

/**
 * A route path as Express 5's router matches it, for paths made of literal
 * segments and `:name` parameters: the raw path, in any letter case, with or
 * without one trailing slash, a parameter being one non-empty segment.
 * Anything else (optional groups, wildcards) is refused at start-up rather
 * than matched differently from the router.
 */
function compile(path: string): Pattern {
  const names: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      const param = /^:(\w+)$/.exec(segment);
      if (param) {
        names.push(param[1]!);
        return '([^/]+)';
      }
      if (segment.includes(':')) throw new Error(`route path ${path} has a pattern only the router can match`);
      return escapeRegExp(segment);
    })
    .join('/');
  return { regexp: new RegExp(`^${source}/?$`, 'i'), names };
}

/** A value found for a path, with the path's parameters, decoded (undefined when a parameter is not a valid escape). */
export interface Found<T> {
  value: T;
  params: Record<string, string | undefined>;
}

/**
 * Values by route path (`/treatments`, `/treatments/:id`), found for a
 * request path in one step, matched as Express's router would match them:
 * literal paths from a map, then each path with parameters. A Router tries
 * every layer in turn, each through its own next(), which on a hot path costs
 * more than the work the route does.
 */
export class RouteTable<T> {
  private readonly literal = new Map<string, T>();
  private readonly patterns: (Pattern & { value: T })[] = [];

  constructor(routes: Iterable<readonly [path: string, value: T]>) {
    for (const [path, value] of routes) {
      if (/[*{}()?+]/.test(path)) throw new Error(`route path ${path} has a pattern only the router can match`);
      if (path.includes(':')) this.patterns.push({ ...compile(path), value });
      else this.literal.set(literalKey(path), value);
    }
  }

  /** What the first route matching `path` holds (a literal path before one with parameters). */
  find(path: string): Found<T> | undefined {
    const literal = this.literal.get(literalKey(path));
    if (literal !== undefined) return { value: literal, params: {} };
    for (const pattern of this.patterns) {
      const found = this.matchPattern(pattern, path);
      if (found) return found;
    }
    return undefined;
  }

  private matchPattern({ regexp, names, value }: Pattern & { value: T }, path: string): Found<T> | undefined {
    const match = regexp.exec(path);
    if (!match) return undefined;
    const params: Record<string, string | undefined> = {};
    names.forEach((name, index) => {
      const raw = match[index + 1]!;
      try {
        params[name] = decodeURIComponent(raw);
      } catch {
        params[name] = undefined;
      }
    });
    return { value, params };
  }
}
