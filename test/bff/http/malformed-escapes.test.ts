import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownPaths } from '../../../server/http/allowed-methods.js';
import { expressPath, malformedRequests, send, type MalformedAnswer, type MalformedRequest } from '../../support/malformed-escapes.js';
import { startStack, type Stack } from '../support/bff-harness.js';
import { eventually } from '../../support/eventually.js';

interface Line {
  level: number;
  req?: { id: string };
  err?: unknown;
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

/**
 * Every route of the BFF: those its routers hold (the content, booking and status routes, the docs,
 * /widget, /healthz, /readyz, the demo page) and those its OpenAPI document names.
 */
async function routes(): Promise<[string, string[]][]> {
  const document = (await (await fetch(`${stack.bff.api}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  const documented = Object.entries(document.paths).map(([path, operations]): [string, string[]] => [
    `/api${expressPath(path)}`,
    Object.keys(operations).map((method) => method.toUpperCase()),
  ]);
  return [...knownPaths(stack.bff.app.router), ...documented];
}

const linesOf = (answer: MalformedAnswer) =>
  stack.bff.logs.map((text) => JSON.parse(text) as Line).filter((line) => line.req?.id === answer.id);

describe('a malformed percent-escape in the path of the BFF', () => {
  it('is 400 validation_error on the routes that decode it, else 404, never a 500, one warning each without a stack', async () => {
    const requests: MalformedRequest[] = [
      ...malformedRequests(await routes()),
      // Paths no route answers, in front of the API and the widget and under them.
      ...['/%E0', '/api/%E0', '/widget/%E0/x', '/api/appointments/%E0'].map((path) => ({ method: 'GET', path, expected: 404 as const })),
    ];
    expect(requests.map((request) => request.path)).toEqual(
      expect.arrayContaining(['/widget/%E0', '/api/appointments/status/%E0', '/api/treatments/%E0']),
    );

    const answers = await send(stack.bff.baseUrl, requests);

    // A parameter Express's router decodes is 400, as on the server.
    for (const answer of answers) {
      const where = `${answer.method} ${answer.path}`;
      expect(answer.status, where).toBe(answer.expected);
      expect(answer.body, where).toMatchObject({ success: false, error_code: answer.status === 400 ? 'validation_error' : 'not_found' });
    }
    // A 404 outside /api (a browser asking for an asset) is logged at debug, below the BFF's level, as before.
    const logged = (answer: MalformedAnswer) => answer.status === 400 || answer.path.startsWith('/api/');
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
