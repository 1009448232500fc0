import { beforeAll, describe, expect, it } from 'vitest';
import { startStack } from '../support/bff-harness.js';
import { FakeClock } from '../../support/fake-clock.js';

const ALLOWED = 'https://clinic.example';
const STRAY = 'https://other-site.example';
const ANOTHER = 'https://third-site.example';
const HOUR_MS = 60 * 60 * 1000;

interface LogLine {
  level?: number;
  origin?: string;
  msg?: string;
}

let clock: FakeClock;

const stack = await startStack();
beforeAll(async () => {
  clock = stack.upstream.clock as FakeClock;
});

const get = (origin: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.bff.api}/treatments`, { headers: { origin, ...headers } });

/** The warnings about refused origins (pino level 40), written synchronously before each answer ends. */
const warnings = () =>
  stack.bff.logs.map((line) => JSON.parse(line) as LogLine).filter((line) => line.level === 40 && line.msg?.includes('ALLOWED_ORIGINS'));

describe('the log of origins ALLOWED_ORIGINS does not list', () => {
  it('warns once per refused origin per hour, naming the origin and ALLOWED_ORIGINS', async () => {
    for (let i = 0; i < 5; i++) expect((await get(STRAY)).status).toBe(200);
    await get(ANOTHER);

    expect(warnings().map((line) => line.origin)).toEqual([STRAY, ANOTHER]);
    expect(warnings()[0]?.msg).toContain(STRAY);

    clock.advance(HOUR_MS - 1000);
    await get(STRAY);
    expect(warnings()).toHaveLength(2);

    clock.advance(2000);
    await get(STRAY);
    expect(warnings().map((line) => line.origin)).toEqual([STRAY, ANOTHER, STRAY]);
  });

  it('says nothing about an allowed origin, a request without Origin, or a browser same-origin request', async () => {
    const before = warnings().length;

    await get(ALLOWED);
    await fetch(`${stack.bff.api}/treatments`);
    await get(stack.bff.baseUrl, { 'sec-fetch-site': 'same-origin' });

    expect(warnings()).toHaveLength(before);
  });
});
