import { describe, expect, it } from 'vitest';
import { startBff, startStubUpstream } from '../support/bff-harness.js';
import { describeProblem, redoclyLint } from '../../server/docs/openapi-tools.js';

const upstream = await startStubUpstream();
const bff = await startBff(upstream.api, { appKey: 'stub-key', secret: 'stub-secret-0123456789abcdef' });

describe('redocly lint (recommended rules) of GET /api/openapi.json', () => {
  it('reports no error and no warning', async () => {
    const document: unknown = await (await fetch(`${bff.api}/openapi.json`)).json();

    const report = await redoclyLint(document);

    expect(report.problems.map(describeProblem)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  }, 60_000);
});
