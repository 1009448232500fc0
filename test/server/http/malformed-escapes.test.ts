import { describe, expect, it } from 'vitest';
import { knownPaths } from '../../../server/http/allowed-methods.js';
import { malformedRequests, send, type MalformedAnswer } from '../../support/malformed-escapes.js';
import { authenticatedCaller, seedClinic } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { eventually } from '../../support/eventually.js';

interface Line {
  level: number;
  req?: { id: string };
  err?: unknown;
}

const ctx = useTestServer({ setup: async (server) => ({ caller: await authenticatedCaller(server, await seedClinic(server)) }) });

/** Every route the app's routers answer (the resources, /granttoken, the docs, /healthz, /readyz, the demo pictures). */
const routes = () => [...knownPaths(ctx.server.app.router)];

/** The log lines of one request, by the X-Request-Id it was sent with. */
const linesOf = (answer: MalformedAnswer) =>
  ctx.server.logs.map((text) => JSON.parse(text) as Line).filter((line) => line.req?.id === answer.id);

describe('a malformed percent-escape in the path', () => {
  it('is 400 validation_error on every route with a parameter, 404 elsewhere, never a 500, one warning each without a stack', async () => {
    const requests = [
      ...malformedRequests(routes()),
      // Paths no route answers.
      ...(['/%E0', '/api/v1/%E0', '/api/v1/treatments/1/%E0'] as const).map((path) => ({ method: 'GET', path, expected: 404 as const })),
      { method: 'POST', path: '/api/v1/appointments/%E0', expected: 404 as const },
    ];
    // The walk covers the routes that decode a parameter, and those that do not.
    expect(requests.filter((request) => request.expected === 400).map((request) => request.path)).toEqual(
      expect.arrayContaining(['/api/v1/treatments/%E0', '/api/v1/appointments/status/%E0', '/assets/demo/%E0']),
    );

    const answers = await send(ctx.server.baseUrl, requests, ctx.caller.headers);

    for (const answer of answers) {
      const where = `${answer.method} ${answer.path}`;
      expect(answer.status, where).toBe(answer.expected);
      expect(answer.body, where).toStrictEqual({
        success: false,
        message: answer.expected === 400 ? 'Invalid request: the path holds a malformed percent-escape' : 'Route not found',
        error_code: answer.expected === 400 ? 'validation_error' : 'not_found',
      });
    }
    // Written once each answer has finished; a 404 outside /api (a browser asking for an asset) is
    // logged at debug, below the server's level, as before.
    const logged = (answer: MalformedAnswer) => answer.expected === 400 || answer.path.startsWith('/api/');
    await eventually(() => expect(answers.filter(logged).every((answer) => linesOf(answer).length > 0)).toBe(true));
    for (const answer of answers) {
      const where = `${answer.method} ${answer.path}`;
      const lines = linesOf(answer);
      if (!logged(answer)) {
        expect(lines, where).toEqual([]);
        continue;
      }
      expect(lines, where).toHaveLength(1);
      expect(lines[0]!.level, where).toBe(40);
      expect(lines[0]!.err, where).toBeUndefined();
    }
  });
});
