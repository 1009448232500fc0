import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDb, startTestServer, type TestServer } from '../support/test-server.js';
import { describeProblem, redoclyLint } from './openapi-tools.js';

let server: TestServer;
let document: { info: Record<string, unknown> };

beforeAll(async () => {
  server = await startTestServer();
  document = (await (await fetch(`${server.api}/openapi.json`)).json()) as typeof document;
});
afterAll(async () => {
  await server.close();
  removeDb(server.dbPath);
});

describe('redocly lint (recommended rules) of GET /api/v1/openapi.json', () => {
  it('reports no error and no warning', async () => {
    const report = await redoclyLint(document);

    expect(report.problems.map(describeProblem)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  }, 60_000);

  it('would report a document that breaks a rule (the check can fail)', async () => {
    const { license: _license, ...info } = document.info;

    const report = await redoclyLint({ ...document, info });

    expect(report.problems.map((p) => p.ruleId)).toEqual(['info-license']);
  }, 60_000);
});
