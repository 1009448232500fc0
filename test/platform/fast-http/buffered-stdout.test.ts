import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { STDOUT_WRITER } from '../../../platform/fast-http/buffered-stdout.js';

/**
 * Guard of a hot-path trick (docs/performance.md): BufferedStdout hands its
 * batches to sonic-boom asynchronously and, at exit, waits on sonic-boom's
 * flush(cb) for them to be written. That wait holds only because sonic-boom
 * calls back after the writes in flight when it has a minLength (with 0 it
 * calls back at once). An upgrade that changes it fails here, before lines
 * go missing at a shutdown.
 */
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('what BufferedStdout relies on in sonic-boom', () => {
  it('flush(cb), with the writer’s own options, calls back once a write in flight has reached the file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'buffered-stdout-'));
    const file = join(dir, 'log');
    const writer = pino.destination({ ...STDOUT_WRITER, dest: file });
    await new Promise((resolve) => writer.once('ready', resolve));
    const batch = 'x'.repeat(1024 * 1023) + '\n';
    for (let i = 0; i < 8; i++) writer.write(batch);

    const sizeAtCallback = await new Promise<number>((resolve, reject) => {
      writer.flush((err?: Error) => (err ? reject(err) : resolve(statSync(file).size)));
    });
    writer.end();

    expect(STDOUT_WRITER.sync).toBe(false);
    expect(sizeAtCallback).toBe(8 * batch.length);
  });
});
