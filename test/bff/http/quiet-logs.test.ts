import { describe, expect, it } from 'vitest';
import { startStack } from '../support/bff-harness.js';
import { eventually } from '../../support/eventually.js';

interface LogLine {
  level?: number;
  req?: { path?: string };
  res?: { statusCode?: number };
}

const WARN = 40;

const linesFor = (path: string) =>
  stack.bff.logs.map((line) => JSON.parse(line) as LogLine).filter((line) => line.req?.path === path);

/** Waits until the BFF has logged a line for `path` (pino-http writes it once the answer has finished). */
async function loggedOnce(path: string): Promise<void> {
  await eventually(() => expect(linesFor(path)).not.toEqual([]));
}

const stack = await startStack();

describe('the BFF request log at level info (the demo terminal)', () => {
  it('leaves out a 404 for an asset outside /api, such as /favicon.ico (it is logged at debug)', async () => {
    for (const path of ['/favicon.ico', '/apple-touch-icon.png', '/widget/nope.js']) {
      expect((await fetch(`${stack.bff.baseUrl}${path}`)).status).toBe(404);
    }
    // An answered API request after them, so their lines, were they written, would be in by now.
    await fetch(`${stack.bff.api}/organization`);
    await loggedOnce('/api/organization');
    expect(linesFor('/favicon.ico')).toEqual([]);
    expect(linesFor('/apple-touch-icon.png')).toEqual([]);
    expect(linesFor('/widget/nope.js')).toEqual([]);
  });

  it('keeps an API 4xx at warn', async () => {
    expect((await fetch(`${stack.bff.api}/treatments/999999`)).status).toBe(404);
    await loggedOnce('/api/treatments/999999');
    const [line] = linesFor('/api/treatments/999999');
    expect(line?.level).toBe(WARN);
    expect(line?.res?.statusCode).toBe(404);
  });
});
