// Lighthouse 12 through its Node API, in Debian's Chromium (never a downloaded browser), and what the
// widget benchmark reads from its result (the LHR): scores, metrics, the widget's bytes, and the audits
// that explain a miss.

import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { stopAtCleanUp } from './processes.mjs';

/** Debian's Chromium, as the e2e tests use it (CHROME_PATH moves it). */
export const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/** Lighthouse's two presets: the default config is mobile (Moto G Power, slow 4G, 4x CPU slowdown). */
export const PRESETS = {
  mobile: undefined,
  desktop: desktopConfig,
};

/**
 * One Lighthouse run of `url` with `preset`, in a fresh Chromium (its own profile, cold cache), killed
 * afterwards whatever happens. Lighthouse itself stops waiting for the load after `maxWaitForLoadMs`;
 * the whole run, browser start included, fails after `timeoutMs`.
 */
export async function runLighthouse(url, preset, { maxWaitForLoadMs = 45_000, timeoutMs = 120_000 } = {}) {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
    // The benchmark's own SIGINT handler stops everything (processes.mjs), this browser included.
    handleSIGINT: false,
  });
  const stop = stopAtCleanUp(() => chrome.kill());
  let timer;
  try {
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Lighthouse (${preset}) on ${url} took more than ${timeoutMs / 1000} s`)), timeoutMs);
    });
    const flags = { port: chrome.port, logLevel: 'error', output: 'json', onlyCategories: CATEGORIES, maxWaitForLoad: maxWaitForLoadMs };
    const result = await Promise.race([lighthouse(url, flags, PRESETS[preset]), timeout]);
    if (!result?.lhr) throw new Error(`Lighthouse (${preset}) on ${url} returned no result`);
    if (result.lhr.runtimeError) throw new Error(`Lighthouse (${preset}) on ${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    return result.lhr;
  } finally {
    clearTimeout(timer);
    await stop();
  }
}

const score = (lhr, category) => {
  const value = lhr.categories[category]?.score;
  return typeof value === 'number' ? Math.round(value * 100) : undefined;
};

/** The network requests Lighthouse saw (its network-requests audit). */
export const networkRequests = (lhr) => lhr.audits['network-requests']?.details?.items ?? [];

const sumTransfer = (requests) => requests.reduce((sum, request) => sum + (request.transferSize ?? 0), 0);

/**
 * The loader (clinic-booking.js) and the module (clinic-booking-<8-character hash>.js); a part's name has a word
 * before its hash (clinic-booking-seo-<hash>.js), vite.config.ts's chunk names.
 */
const isFirstRender = (url) => /\/clinic-booking(-[\w-]{8})?\.js$/.test(new URL(url).pathname);

/** What the report's table shows for one run; `isWidgetScript(url)` picks the widget's JavaScript. */
export function summarise(lhr, isWidgetScript) {
  const widgetScripts = networkRequests(lhr).filter((request) => request.resourceType === 'Script' && isWidgetScript(request.url));
  return {
    performance: score(lhr, 'performance'),
    accessibility: score(lhr, 'accessibility'),
    bestPractices: score(lhr, 'best-practices'),
    seo: score(lhr, 'seo'),
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue,
    widgetScripts: widgetScripts.map((request) => ({ url: request.url, transferSize: request.transferSize, resourceSize: request.resourceSize, statusCode: request.statusCode })),
    // The first render: the loader and the module it imports. Parts fetched later (the structured data once the
    // content shows, the calendar file, a language pack) are listed in widgetScripts and summed apart.
    widgetTransferBytes: sumTransfer(widgetScripts.filter((request) => isFirstRender(request.url))),
    laterPartsTransferBytes: sumTransfer(widgetScripts.filter((request) => !isFirstRender(request.url))),
  };
}

/** A node item (an element) as one line: its selector and a short snippet. */
function describeNode(node) {
  if (!node) return 'an element Lighthouse could not name';
  const snippet = (node.snippet ?? '').replace(/\s+/g, ' ').slice(0, 120);
  return [node.selector, snippet].filter(Boolean).join('  ');
}

/** One details item (a table row) as a line: its element, URL, source location and numbers. */
function describeItem(item) {
  const parts = [];
  if (item.node) parts.push(describeNode(item.node));
  if (typeof item.url === 'string') parts.push(item.url);
  if (item.source?.url) parts.push(`${item.source.url}:${item.source.line ?? '?'}`);
  if (typeof item.description === 'string') parts.push(item.description.slice(0, 200));
  for (const key of ['groupLabel', 'phase', 'label']) if (typeof item[key] === 'string') parts.push(item[key]);
  for (const key of ['duration', 'timing', 'total', 'scripting', 'startTime', 'score', 'wastedMs', 'wastedBytes']) {
    if (typeof item[key] === 'number') parts.push(`${key} ${key === 'score' ? item[key].toFixed(3) : Math.round(item[key])}`);
  }
  if (Array.isArray(item.subItems?.items)) {
    for (const sub of item.subItems.items.slice(0, 3)) {
      parts.push(`(${[sub.cause, sub.extra?.type === 'node' ? describeNode(sub.extra) : sub.extra?.value].filter(Boolean).join(': ')})`);
    }
  }
  return parts.join('  ') || JSON.stringify(item).slice(0, 200);
}

/** The rows of an audit's table or list details, at most `limit`, one line each. */
export function auditItems(lhr, id, limit = 5) {
  const details = lhr.audits[id]?.details;
  const items = details?.type === 'list' ? details.items.flatMap((list) => list.items ?? []) : (details?.items ?? []);
  return items.slice(0, limit).map(describeItem);
}

/** The audits of `category` that count towards its score and did not pass. */
export function failingAudits(lhr, category) {
  return (lhr.categories[category]?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit && typeof audit.score === 'number' && audit.score < 1)
    .map((audit) => ({ id: audit.id, title: audit.title, score: audit.score, displayValue: audit.displayValue }));
}

/**
 * The performance category's diagnostics and insights (weight 0: they explain the metrics rather than
 * count) that did not pass.
 */
export function performanceDiagnostics(lhr) {
  return (lhr.categories.performance?.auditRefs ?? [])
    .filter((ref) => ref.weight === 0)
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit && typeof audit.score === 'number' && audit.score < 1 && audit.scoreDisplayMode !== 'informative')
    .map((audit) => `${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''} [${audit.id}]`);
}

/** The performance metrics with their own scores, for a performance miss. */
export function metricScores(lhr) {
  return ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'].map((id) => {
    const audit = lhr.audits[id];
    return `${audit?.title ?? id} ${audit?.displayValue ?? 'n/a'} (score ${typeof audit?.score === 'number' ? Math.round(audit.score * 100) : 'n/a'})`;
  });
}
