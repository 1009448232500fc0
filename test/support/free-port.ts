import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * Where test ports are chosen: below Linux's ephemeral range (32768–60999 by
 * default), from which the kernel picks the local port of every outgoing
 * connection. A port handed out by `listen(0)` comes from that range, and
 * between closing the probe and the child process binding it (or binding it
 * again after a test killed it: a Redis outage) any client connection of any
 * test could take it. A port from here can only be taken by another listener.
 */
const LOWEST = 20_000;
const HIGHEST = 32_000;
const TRIES = 50;

/** A port on 127.0.0.1 that nothing listens on right now, for a process about to be started on it. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < TRIES; attempt++) {
    const port = randomInt(LOWEST, HIGHEST + 1);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${HIGHEST} in ${TRIES} tries`);
}

function canListen(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
