import { Router, type Request } from 'express';
import { describe, expect, it } from 'vitest';
import { RouteTable } from '../../../platform/fast-http/route-table.js';

/** The route an Express 5 router (default options, as both services make theirs) picks for a GET of `url`, and its params. */
function expressMatch(routes: readonly (readonly [string, string])[], url: string): Promise<{ value: string; params: Record<string, unknown> } | undefined> {
  return new Promise((resolve) => {
    const router = Router();
    for (const [path, value] of routes) router.get(path, (req: Request) => resolve({ value, params: { ...req.params } }));
    const req = { method: 'GET', url, headers: {} };
    router(req as never, {} as never, () => resolve(undefined));
  });
}

describe('RouteTable', () => {
  const table = new RouteTable([
    ['/v1.0/items', 'list'],
    ['/v1.0/items/:id', 'item'],
    ['/v1.0/items/:id/parts/:part', 'part'],
  ]);

  it('finds a literal path in any letter case, with or without one trailing slash', () => {
    for (const path of ['/v1.0/items', '/V1.0/ITEMS', '/v1.0/items/']) expect(table.find(path), path).toEqual({ value: 'list', params: {} });
    for (const path of ['/v1.0/items//', '/v1x0/items', '/v1.0/itemsx']) expect(table.find(path), path).toBeUndefined();
  });

  it('matches a parameter as one segment, decoded, and a dot as a dot', () => {
    expect(table.find('/v1.0/items/a%20b/')).toEqual({ value: 'item', params: { id: 'a b' } });
    expect(table.find('/V1.0/Items/7/parts/x')).toEqual({ value: 'part', params: { id: '7', part: 'x' } });
    for (const path of ['/v1x0/items/7', '/v1.0/items//', '/v1.0/items/7/8']) expect(table.find(path), path).toBeUndefined();
  });

  it('gives a parameter that is not a valid escape as undefined rather than throwing', () => {
    expect(table.find('/v1.0/items/%E0')).toEqual({ value: 'item', params: { id: undefined } });
  });

  it('prefers a literal path to paths with parameters that match it too', () => {
    const overlapping = new RouteTable([
      ['/a/:x', 1],
      ['/a/b', 2],
      ['/:y/b', 3],
    ]);
    expect(overlapping.find('/a/b')).toEqual({ value: 2, params: {} });
  });

  it('refuses a path with a pattern it cannot match as the router does', () => {
    expect(() => new RouteTable([['/files/*rest', 1]])).toThrow(/only the router can match/);
    expect(() => new RouteTable([['/items{/:id}', 1]])).toThrow(/only the router can match/);
  });
});

/**
 * Guard of a hot-path trick (docs/performance.md): the table answers paths
 * instead of Express's router, so it must match as that router does (letter
 * case, one trailing slash, `:name` segments, decoding). An upgrade that
 * changes the router's matching fails here, path by path.
 */
describe('RouteTable against Express 5’s own router', () => {
  const routes = [
    ['/api/treatments', 'list'],
    ['/api/treatments/:id', 'item'],
    ['/api/v1.0/items/:id/parts/:part', 'part'],
    ['/api/pictures/:name', 'picture'],
  ] as const;
  const table = new RouteTable(routes);

  it.each([
    '/api/treatments',
    '/API/Treatments',
    '/api/treatments/',
    '/api/treatments//',
    '/api/treatments/7',
    '/api/treatments/7/',
    '/api/treatments/a%20b',
    '/api/treatments/%C3%A9',
    '/api/treatments/7/8',
    '/api/treatment',
    '/api/treatmentsx',
    '/api/v1.0/items/3/parts/x',
    '/api/v1x0/items/3/parts/x',
    '/api/pictures/team-1.jpg',
    '/api/pictures/.hidden',
    '/api/pictures/a.b.c',
    '/api//treatments',
  ])('picks the route Express picks for %s, with the same params', async (path) => {
    expect(table.find(path) ?? undefined, path).toEqual(await expressMatch(routes, path));
  });
});
