import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, openDemo, widget } from './support/browser.js';
import { freePort } from '../support/free-port.js';
import { REPO_ROOT } from './support/stack.js';
import { eventually } from '../support/eventually.js';

/** State and parent of a process, from /proc (Linux, like the rest of this suite); undefined once it is gone. */
function procStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = '', ppid = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** Every process below `root`: npm's shell, scripts/dev.mjs, the watchers, the services, Vite, esbuild... */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    const ppid = Number.isInteger(pid) ? procStat(pid)?.ppid : undefined;
    if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found: number[] = [];
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(root);
  return found;
}

const isRunning = (pid: number) => {
  const state = procStat(pid)?.state;
  return state !== undefined && state !== 'Z';
};

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const start = Date.now(); Date.now() - start < timeoutMs; await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (condition()) return true;
  }
  return condition();
}

interface Dev {
  child: ChildProcess;
  output: () => string;
}

/**
 * `npm run dev` in a process group of its own, as a terminal runs it: Ctrl-C
 * is then SIGINT to that whole group, which is how the test stops it.
 */
function startDev(env: Record<string, string>): Dev {
  const child = spawn('npm', ['run', 'dev'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** What the page's own globals are to this test (the root tsconfig has no DOM lib). */
type PageMarker = { beforeTheEdit?: boolean };

describe('npm run dev (scripts/dev.mjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clinic-dev-'));
  // The element's own source: always in Vite's module graph. Only its mtime changes.
  const touched = join(REPO_ROOT, 'widget', 'clinic-booking.ts');
  let browser: Browser;
  let dev: Dev | undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
    // Only if the test failed before Ctrl-C: nothing of this run may outlive it.
    if (dev?.child.pid && isRunning(dev.child.pid)) process.kill(-dev.child.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the widget from Vite through the BFF, reloads the page when a widget file changes, and stops everything on Ctrl-C', { timeout: 120_000 }, async () => {
    const ports = { SERVER_PORT: await freePort(), PORT: await freePort(), VITE_PORT: await freePort() };
    dev = startDev({
      SERVER_PORT: String(ports.SERVER_PORT),
      PORT: String(ports.PORT),
      VITE_PORT: String(ports.VITE_PORT),
      DATABASE_URL: `file:${join(dir, 'clinic.db')}`,
      DEMO_ENV_FILE: join(dir, '.env'),
    });
    const running = await until(() => dev!.output().includes('clinic-booking dev is running') || dev!.child.exitCode !== null, 60_000);
    expect(running, dev.output()).toBe(true);
    expect(dev.output()).toContain('clinic-booking dev is running');
    expect(dev.output()).toContain('Seeded the demo clinic');
    const bff = `http://127.0.0.1:${ports.PORT}`;
    const processes = descendants(dev.child.pid!);
    expect(processes.length).toBeGreaterThanOrEqual(6);

    const context = await newContext(browser);
    const page = await context.newPage();
    const consoleLines: string[] = [];
    const sockets: string[] = [];
    const framesFromVite: string[] = [];
    const scripts: string[] = [];
    page.on('console', (message) => consoleLines.push(message.text()));
    page.on('websocket', (socket) => {
      sockets.push(socket.url());
      socket.on('framereceived', (frame) => framesFromVite.push(String(frame.payload)));
    });
    page.on('response', (response) => scripts.push(response.url()));
    const { atime, mtime } = statSync(touched);
    let touchedAt: Date | undefined;
    try {
      // The widget renders from its sources, which Vite serves through the BFF's /widget proxy.
      await openDemo(page, `${bff}/`);
      expect(scripts).toContain(`${bff}/widget/clinic-booking.js`);
      expect(scripts).toContain(`${bff}/widget/clinic-booking.ts`);

      // Vite's HMR client connected through the BFF (not straight to Vite) and got Vite's greeting.
      expect(await until(() => consoleLines.includes('[vite] connected.'), 15_000), consoleLines.join('\n')).toBe(true);
      expect(sockets[0]).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:${ports.PORT}/widget/\\?token=`));
      expect(framesFromVite.some((frame) => frame.includes('"type":"connected"'))).toBe(true);

      // Saving a widget file (here: only its mtime) reloads the page, which renders the widget again.
      await page.evaluate(() => {
        (globalThis as PageMarker).beforeTheEdit = true;
      });
      touchedAt = new Date();
      utimesSync(touched, atime, touchedAt);
      await page.waitForFunction(() => (globalThis as PageMarker).beforeTheEdit === undefined, null, { timeout: 15_000 });
      await widget(page).form.waitFor();
      expect(dev.output()).toMatch(/page reload .*clinic-booking\.ts/);
    } finally {
      await context.close();
      // Put the old mtime back unless someone saved the file meanwhile.
      if (touchedAt && Math.abs(statSync(touched).mtimeMs - touchedAt.getTime()) < 1) utimesSync(touched, atime, mtime);
    }

    // Ctrl-C: every process of the run is gone within a few seconds, and so are the ports.
    process.kill(-dev.child.pid!, 'SIGINT');
    const allGone = await until(() => processes.every((pid) => !isRunning(pid)) && !isRunning(dev!.child.pid!), 8_000);
    expect(allGone, `still running: ${processes.filter(isRunning).join(', ')}\n${dev.output()}`).toBe(true);
    for (const port of Object.values(ports)) await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    expect(dev.output()).not.toMatch(/force|forced exit/i);
  });

  it('stops the services, draining without a forced exit, then every process, when SIGINT reaches only the npm process (`kill -INT`)', { timeout: 120_000 }, async () => {
    const ports = { SERVER_PORT: await freePort(), PORT: await freePort(), VITE_PORT: await freePort() };
    const alone = startDev({
      SERVER_PORT: String(ports.SERVER_PORT),
      PORT: String(ports.PORT),
      VITE_PORT: String(ports.VITE_PORT),
      DATABASE_URL: `file:${join(dir, 'clinic.db')}`,
      DEMO_ENV_FILE: join(dir, '.env'),
    });
    const up = (port: number) => fetch(`http://127.0.0.1:${port}/`).then(() => true, () => false);
    try {
      const running = await until(() => alone.output().includes('clinic-booking dev is running') || alone.child.exitCode !== null, 60_000);
      expect(running, alone.output()).toBe(true);
      expect(alone.output()).toContain('clinic-booking dev is running');
      const processes = descendants(alone.child.pid!);
      expect(processes.length).toBeGreaterThanOrEqual(5);

      // To npm alone, not to its process group as a terminal's Ctrl-C would.
      alone.child.kill('SIGINT');
      // The bound only ends a failing test: a stop that hung would end in the forced exit, which must not show.
      await eventually(async () => expect(await Promise.all(Object.values(ports).map(up))).toEqual(Object.values(ports).map(() => false)), {
        timeoutMs: 20_000,
        intervalMs: 100,
      });
      expect(alone.output()).not.toMatch(/forced exit/i);
      const allGone = await until(() => processes.every((pid) => !isRunning(pid)) && !isRunning(alone.child.pid!), 8_000);
      expect(allGone, `still running: ${processes.filter(isRunning).join(', ')}\n${alone.output()}`).toBe(true);
    } finally {
      // Should it not have stopped, nothing of this run may outlive the test.
      try {
        process.kill(-alone.child.pid!, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    }
  });
});
