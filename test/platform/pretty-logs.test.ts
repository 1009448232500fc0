import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../platform/logger.js';

/** The stream a pino logger writes to. */
const streamOf = (logger: pino.Logger) => (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];

describe('createLogger', () => {
  afterEach(() => vi.restoreAllMocks());

  it('writes pretty, readable lines when stdout is a terminal and no destination was passed', () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const logger = createLogger('info', undefined, { isTTY: true });
    logger.info({ patient_name: 'Ottoline Wrenfield' }, 'hello from the BFF');
    logger.flush();
    const text = written.join('');
    expect(text).toContain('hello from the BFF');
    expect(text).toContain('INFO');
    expect(text.trimStart().startsWith('{')).toBe(false);
    expect(text).not.toContain('Ottoline');
  });

  it('writes JSON when stdout is not a terminal', () => {
    const logger = createLogger('info', undefined, { isTTY: false });
    expect((streamOf(logger) as object).constructor.name).toBe('BufferedStdout');
  });

  it('writes JSON to a destination that was passed, even on a terminal', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('info', sink, { isTTY: true });
    logger.info('to the sink');
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ msg: 'to the sink', level: 30 });
  });
});
