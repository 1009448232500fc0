import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort } from '../../support/free-port.js';

/**
 * WebKit, Safari's engine, as Debian ships it: WebKitGTK's MiniBrowser, driven
 * over WebDriver (classic, HTTP and JSON) by WebKitGTK's own WebKitWebDriver,
 * in an Xvfb display. playwright-core drives only the browsers it downloads,
 * which this machine cannot, so the few commands a test needs are sent by hand.
 */
export const WEBKIT = {
  driver: '/usr/bin/WebKitWebDriver',
  browser: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  display: '/usr/bin/Xvfb',
};

/** Whether this machine has WebKit's pieces (Debian's webkit2gtk-driver and xvfb; scripts/ensure-webkit.mjs installs them). */
export const webKitInstalled = (): boolean => Object.values(WEBKIT).every((path) => existsSync(path));

export interface WebKitPage {
  /** The X display the browser is in (':99'). */
  display: string;
  /** Loads `url` and waits for its load event. */
  open(url: string): Promise<void>;
  /** The value `body` (a function body: `return ...`) returns in the page. */
  evaluate<T>(body: string): Promise<T>;
  /** Any other WebDriver command of this session (`path` after /session/{id}, e.g. '/window/rect'): its value. */
  send<T>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

/**
 * Starts Xvfb, WebKitWebDriver and one MiniBrowser session in it; `screen` is the display's size
 * (a window larger than it is cut off in screenshots), `env` more of the browser's environment (TZ).
 */
export async function openWebKit({ screen = '1280x900', env = {} }: { screen?: string; env?: Record<string, string> } = {}): Promise<WebKitPage> {
  const processes: ChildProcess[] = [];
  const stopAll = () => {
    for (const child of processes.reverse()) child.kill('SIGKILL');
  };
  try {
    const display = await startDisplay(processes, screen);
    const port = await freePort();
    const driver = spawn(WEBKIT.driver, [`--port=${port}`, '--host=127.0.0.1'], { env: { ...process.env, ...env, DISPLAY: display }, stdio: 'ignore' });
    processes.push(driver);
    const base = `http://127.0.0.1:${port}`;
    await untilAnswers(`${base}/status`);
    const session = await command<{ sessionId: string }>('POST', `${base}/session`, {
      capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { binary: WEBKIT.browser, args: ['--automation'] } } },
    });
    const at = `${base}/session/${session.sessionId}`;
    return {
      display,
      open: async (url) => void (await command('POST', `${at}/url`, { url })),
      evaluate: (body) => command('POST', `${at}/execute/sync`, { script: body, args: [] }),
      send: (method, path, body) => command(method, `${at}${path}`, body),
      close: async () => {
        await command('DELETE', at).catch(() => undefined);
        stopAll();
      },
    };
  } catch (error) {
    stopAll();
    throw error;
  }
}

/** An X display of its own (Xvfb picks a free number and writes it to the pipe given by -displayfd). */
function startDisplay(processes: ChildProcess[], screen: string): Promise<string> {
  const xvfb = spawn(WEBKIT.display, ['-displayfd', '3', '-screen', '0', `${screen}x24`, '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  processes.push(xvfb);
  return new Promise((resolve, reject) => {
    let written = '';
    xvfb.stdio[3]!.on('data', (chunk: Buffer) => {
      written += chunk.toString();
      if (written.includes('\n')) resolve(`:${written.trim()}`);
    });
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before naming its display`)));
  });
}

/** Polls `url` until it answers, for a process just started (WebKitWebDriver says nothing when ready). */
async function untilAnswers(url: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answered = await fetch(url).then(() => true, () => false);
    if (answered) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One WebDriver command: its `value`, or an error naming WebDriver's. */
async function command<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = (await res.json()) as { value: T & { error?: string; message?: string } };
  if (!res.ok) throw new Error(`WebDriver ${method} ${new URL(url).pathname}: ${answer.value.error}: ${answer.value.message}`);
  return answer.value;
}
