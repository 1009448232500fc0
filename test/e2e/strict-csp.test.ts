import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, waitForReference, widget } from './support/browser.js';
import type { ImageElement, PageGlobals } from './support/dom.js';
import { bookingSteps } from './support/booking-steps.js';
import { REPO_ROOT, startE2eStack, weekdayAhead, type E2eStack } from './support/stack.js';

/** The CSP recipe of docs/embedding.md, as written there (with https://bff.example for the BFF). */
function documentedPolicy(): string {
  const docs = readFileSync(join(REPO_ROOT, 'docs/embedding.md'), 'utf8');
  const line = /^Content-Security-Policy: (.+)$/m.exec(docs)?.[1];
  if (!line) throw new Error('docs/embedding.md has no Content-Security-Policy line');
  return line;
}

/** getComputedStyle in a page function (the e2e tests compile without the DOM library). */
type WithComputedStyle = { getComputedStyle(element: unknown): { backgroundColor: string; backgroundImage: string } };

interface Violation {
  directive: string;
  blocked: string;
}

describe('a clinic page with the strict CSP of docs/embedding.md', () => {
  let stack: E2eStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const consoleProblems: string[] = [];
  let policy: string;

  beforeAll(async () => {
    stack = await startE2eStack();
    browser = await launchBrowser();
    policy = documentedPolicy().replaceAll('https://bff.example', stack.bff.baseUrl);
    stack.site.pages.set(
      '/strict.html',
      `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Strict</title>
        <script type="module" src="${stack.bff.baseUrl}/widget/clinic-booking.js"></script></head>
        <body><clinic-booking><a href="tel:+442079460958">Call to book</a></clinic-booking></body></html>`,
    );
    stack.site.pageHeaders.set('/strict.html', { 'content-security-policy': policy });
    context = await newContext(browser);
    page = await context.newPage();
    // Before any script of the page: every violation, reported as an event on the document.
    await page.addInitScript(() => {
      type Listening = { __violations: Violation[]; document: { addEventListener(type: string, listener: (event: unknown) => void): void } };
      const globals = globalThis as unknown as Listening;
      globals.__violations = [];
      globals.document.addEventListener('securitypolicyviolation', (event) => {
        const violation = event as { effectiveDirective: string; blockedURI: string };
        globals.__violations.push({ directive: violation.effectiveDirective, blocked: violation.blockedURI });
      });
    });
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) consoleProblems.push(message.text());
    });
    await page.goto(`${stack.site.origin}/strict.html`);
    await widget(page).form.waitFor();
    await page.waitForLoadState('networkidle');
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await stack?.close();
  });

  const violations = () => page.evaluate(() => (globalThis as unknown as { __violations: Violation[] }).__violations);

  it("is the documented policy: only the BFF's origin for scripts, requests and images, blob: workers, nothing inline", () => {
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain(`script-src ${stack.bff.baseUrl};`);
    expect(policy).toContain(`connect-src ${stack.bff.baseUrl};`);
    expect(policy).toContain(`img-src ${stack.bff.baseUrl};`);
    expect(policy).toContain('worker-src blob:');
  });

  it("loads the clinic's pictures, from the BFF's origin", async () => {
    const el = widget(page).el;
    const logo = el.locator('[part="site-header"] img');
    await expect.poll(() => logo.evaluate((img: ImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await logo.getAttribute('src')).toMatch(new RegExp(`^${stack.bff.api}/pictures/`));
    // The hero's background comes from the widget's own stylesheet, from the BFF too.
    const background = await el.locator('[part="hero"]').evaluate((hero) => (globalThis as unknown as WithComputedStyle).getComputedStyle(hero).backgroundImage);
    expect(background).toContain(`${stack.bff.api}/pictures/`);
  });

  it("applies the clinic's theme without a style attribute anywhere", async () => {
    const el = widget(page).el;
    // The demo clinic's primary colour, #0f766e, fills the call to action.
    expect(await el.locator('[part="cta"]').evaluate((cta) => (globalThis as unknown as WithComputedStyle).getComputedStyle(cta).backgroundColor)).toBe('rgb(15, 118, 110)');
    const styled = await page.evaluate(() => {
      const found: string[] = [];
      const walk = (root: { querySelectorAll(selector: string): ArrayLike<{ localName: string; shadowRoot: unknown; hasAttribute(name: string): boolean }> }) => {
        for (const node of Array.from(root.querySelectorAll('*'))) {
          if (node.hasAttribute('style')) found.push(node.localName);
          if (node.shadowRoot) walk(node.shadowRoot as typeof root);
        }
      };
      walk((globalThis as unknown as PageGlobals).document as unknown as Parameters<typeof walk>[0]);
      return found;
    });
    expect(styled).toEqual([]);
  });

  it('books an appointment', async () => {
    const steps = bookingSteps(page);
    await steps.chooseTreatment('Dental check-up');
    await steps.chooseDentist('Dr Amara Okafor');
    await steps.pickDay(weekdayAhead(3));
    await steps.pickTime('11:00');
    await steps.fillDetails('Strict Stella', '+44 7700 900123');
    await steps.book();

    expect(await waitForReference(page)).toMatch(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){4}$/);
  });

  it('causes no CSP violation and no console error', async () => {
    expect(await violations()).toEqual([]);
    expect(consoleProblems).toEqual([]);
  });
});
