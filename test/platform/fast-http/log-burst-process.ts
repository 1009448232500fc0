// A process for log-flush.test.ts: the real logger (stdout is a pipe, so the buffered destination)
// and serve(), with a burst of log lines at the moment they are most likely to be lost.
//
//   node --import tsx log-burst-process.ts shutdown LINES   the burst as the drain ends (SIGTERM), then exit 0
//   node --import tsx log-burst-process.ts fatal LINES      the burst, then an uncaught exception (exit 1)
import express from 'express';
import { createLogger } from '../../../platform/logger.js';
import { serve } from '../../../platform/serve.js';

const [mode, count] = process.argv.slice(2);
const lines = Number(count);
const logger = createLogger('info', undefined, { isTTY: false });

/** Lines long enough that the burst is many buffer-fulls (LOG_BUFFER_BYTES) and several pipe-fulls. */
const burst = () => {
  for (let line = 0; line < lines; line++) logger.info({ line, filler: 'x'.repeat(200) }, 'burst');
};

if (mode === 'fatal') {
  burst();
  throw new Error('fatal error right after the burst');
}

serve(express(), {
  name: 'log burst',
  port: 0,
  host: '127.0.0.1',
  logger,
  shutdownTimeoutMs: 10_000,
  onDrained: async () => burst(),
});
