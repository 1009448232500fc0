import { createServer } from 'node:http';
import express, { type RequestHandler } from 'express';
import { describe, expect, it } from 'vitest';
import { served, declaration, type AnyOperation } from '../../../platform/operation.js';
import { sameOperations, sharedApiRouter, type SiteApi } from '../../../bff/site-api.js';
import { closeWhenScopeEnds } from '../../support/scoped-teardown.js';
import { closeServer, listen } from '../support/bff-harness.js';

const PING = declaration({ id: 'ping', method: 'get', path: '/ping', docs: { summary: 'ping' }, responses: {} });
const ECHO = declaration({ id: 'echo', method: 'post', path: '/echo', docs: { summary: 'echo' }, responses: {} });

/** A site whose every handler answers (or marks the answer) with its own name. */
function fakeSite(name: string): SiteApi {
  const mark: RequestHandler = (_req, res, next) => {
    res.setHeader('X-Before', name);
    next();
  };
  const content: AnyOperation[] = [served(PING, { handle: (_input, _req, res) => void res.end(`ping from ${name}`) })];
  const routed: AnyOperation[] = [served(ECHO, { before: [mark], handle: (_input, _req, res) => void res.end(`echo from ${name}`) })];
  const pass: RequestHandler = (_req, res, next) => {
    res.setHeader(`X-Passed-${name}`, 'yes');
    next();
  };
  return { cors: pass, limit: pass, content, routed, operations: [...content, ...routed] } as unknown as SiteApi;
}

/** An app of `handler` alone, listening until the test ends. */
async function listenWith(handler: RequestHandler): Promise<string> {
  const server = createServer(express().use(handler));
  closeWhenScopeEnds(() => closeServer(server));
  return listen(server);
}

describe('the one /api router of every database site (sharedApiRouter)', () => {
  it("runs the request's own site's handlers, before-handlers, CORS and limit included", async () => {
    const sites: Record<string, SiteApi> = { a: fakeSite('a'), b: fakeSite('b') };
    const router = sharedApiRouter(sites.a!, (res) => res.locals.siteApi!);
    const base = await listenWith((req, res, next) => {
      res.locals.siteApi = sites[String(req.headers['x-site'])];
      router(req, res, next);
    });

    const answers = await Promise.all(
      ['a', 'b', 'b', 'a'].map(async (site) => {
        const ping = await fetch(`${base}/ping`, { headers: { 'x-site': site } });
        const echo = await fetch(`${base}/echo`, { method: 'POST', headers: { 'x-site': site } });
        return [site, await ping.text(), await echo.text(), echo.headers.get('x-before'), echo.headers.get(`x-passed-${site}`)];
      }),
    );

    expect(answers).toEqual(
      ['a', 'b', 'b', 'a'].map((site) => [site, `ping from ${site}`, `echo from ${site}`, site, 'yes']),
    );
  });

  it('refuses a site whose operations are not those of the router', () => {
    const shape = fakeSite('a');
    const other = { ...fakeSite('b'), routed: [] };

    expect(() => sameOperations(shape, fakeSite('b'))).not.toThrow();
    expect(() => sameOperations(shape, other)).toThrow(/site operations differ/);
  });
});
