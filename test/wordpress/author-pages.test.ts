import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildPluginZip } from '../../scripts/wordpress/build-zip.mjs';
import { bookingSteps } from '../e2e/support/booking-steps.js';
import { launchBrowser, newContext, waitForReference, widget } from '../e2e/support/browser.js';
import { startE2eStack, weekdayAhead, type E2eStack } from '../e2e/support/stack.js';
import { freePort } from '../support/free-port.js';
import { publishPostAs, signIn, uploadAndActivatePlugin, type RestPost } from './support/wp-admin.js';
import { startWordPress, wordPressLaneRuns, type RunningWordPress } from './support/wordpress.js';

const lane = await wordPressLaneRuns();

/** The sum of the page's layout shifts not caused by input, as CLS counts them, from the first paint on. */
const LAYOUT_SHIFT_OBSERVER = `
  window.__layoutShift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__layoutShift += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
`;

/**
 * An Author's posts on a real WordPress with the plugin: the block and the shortcode saved through WordPress's
 * REST API, so kses filters them as it filters every Author's post, and a patient booking on each in Chromium.
 * (An Author may publish posts, not Pages: these are the Author's pages of the site.)
 */
describe.runIf(lane.runs)("the WordPress plugin: an Author's pages", () => {
  let stack: E2eStack;
  let wp: RunningWordPress;
  let browser: Browser;
  let zipDir: string;
  const contexts: BrowserContext[] = [];
  let blockPost: RestPost;
  let shortcodePost: RestPost;
  let rawPost: RestPost;
  let plainPost: RestPost;

  beforeAll(async () => {
    if (lane.missing.length > 0) throw new Error(`the WordPress lane needs ${lane.missing.join('; ')} (scripts/wordpress/install-wordpress.sh)`);
    const port = await freePort();
    stack = await startE2eStack({ allowedOrigins: [`http://127.0.0.1:${port}`] });
    wp = await startWordPress(port);
    zipDir = mkdtempSync(join(tmpdir(), 'clinic-booking-zip-'));
    browser = await launchBrowser();

    const admin = await freshPage();
    await signIn(admin, wp, wp.admin);
    await uploadAndActivatePlugin(admin, wp, buildPluginZip(join(zipDir, 'clinic-booking.zip')));
    await admin.context().close();
    await wp.php(
      "update_option( 'clinic_booking_settings', array( 'widget_url' => $args[0], 'sections' => 'booking', 'phone' => '+44 20 7946 0958' ) );",
      `${stack.bff.baseUrl}/`,
    );

    const author = wp.author;
    blockPost = await publishPostAs(
      wp,
      author,
      'Book a check-up',
      '<!-- wp:paragraph --><p>Choose a time that suits you.</p><!-- /wp:paragraph -->\n\n' +
        '<!-- wp:clinic-booking/booking {"sections":"booking","align":"wide"} /-->\n\n' +
        '<!-- wp:paragraph --><p>We look forward to seeing you.</p><!-- /wp:paragraph -->',
    );
    shortcodePost = await publishPostAs(wp, author, 'Book from anywhere', '<p>Press the button to book.</p>\n\n[clinic_booking sections="booking" mode="button"]');
    rawPost = await publishPostAs(
      wp,
      author,
      'Pasted embed',
      `<script type="module" src="${stack.bff.baseUrl}/widget/clinic-booking.js"></script>\n<clinic-booking sections="booking"><a href="tel:+442079460958">Call to book</a></clinic-booking>`,
    );
    plainPost = await publishPostAs(wp, author, 'Opening hours', '<p>We are open Monday to Saturday.</p>');
  }, 180_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await wp?.close();
    await stack?.close();
    if (zipDir) rmSync(zipDir, { recursive: true, force: true });
  });

  async function freshPage(viewport = { width: 1280, height: 900 }): Promise<Page> {
    const context = await newContext(browser, { viewport });
    contexts.push(context);
    return context.newPage();
  }

  /** The widget-script requests a page makes while it loads. */
  function scriptRequests(page: Page): string[] {
    const seen: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/widget/')) seen.push(request.url());
    });
    return seen;
  }

  it('lets kses strip what an Author pastes, so the check below is real', async () => {
    expect(await wp.php("echo user_can( (int) $args[0], 'unfiltered_html' ) ? 'yes' : 'no';", String(wp.author.id))).toBe('no');
    expect(rawPost.content.raw).not.toContain('<script');
    expect(rawPost.content.raw).not.toContain('<clinic-booking');
    expect(rawPost.content.raw).toContain('Call to book');
  });

  it('keeps the block and the shortcode an Author saved, and renders the widget with its fallback inside', async () => {
    expect(blockPost.content.raw).toContain('<!-- wp:clinic-booking/booking {"sections":"booking","align":"wide"} /-->');
    expect(shortcodePost.content.raw).toContain('[clinic_booking sections="booking" mode="button"]');

    const html = await (await fetch(blockPost.link)).text();
    // The site is en_GB: the widget speaks en-GB (dates, a 24-hour clock, weeks from Monday).
    expect(html).toContain(
      '<div class="alignwide wp-block-clinic-booking-booking"><clinic-booking sections="booking" lang="en-GB">' +
        '<p class="clinic-booking-fallback"><a href="tel:+442079460958">Call to book: +44 20 7946 0958</a></p></clinic-booking></div>',
    );
    // One module script, in the footer (after the content), and the reservation CSS in the head.
    const scripts = [...html.matchAll(/<script[^>]*clinic-booking\.js[^>]*><\/script>/g)].map((match) => match[0]);
    expect(scripts).toEqual([`<script type="module" data-cfasync="false" src='${stack.bff.baseUrl}/widget/clinic-booking.js' id='clinic-booking-widget-js'></script>`]);
    expect(html.indexOf(scripts[0]!)).toBeGreaterThan(html.indexOf('<clinic-booking'));
    expect(html.indexOf("<style id='clinic-booking-inline-css'>")).toBeLessThan(html.indexOf('</head>'));
  });

  it("writes only values the widget knows, whatever a shortcode or a block's attributes say", async () => {
    const post = await publishPostAs(
      wp,
      wp.author,
      'Attributes',
      '[clinic_booking sections="booking" mode="button" lang="fr"]\n\n' +
        '[clinic_booking sections="booking evil status" mode="popup" lang="xx"]\n\n' +
        '<!-- wp:clinic-booking/booking {"sections":"\\"><script>alert(1)</script>","mode":"inline","lang":"de_AT"} /-->',
    );
    const html = await (await fetch(post.link)).text();
    const tags = [...html.matchAll(/<clinic-booking\b[^>]*>/g)].map((match) => match[0]);

    expect(tags).toEqual([
      '<clinic-booking sections="booking" mode="button" lang="fr">',
      // Unknown names dropped, an unknown mode and language replaced by the defaults (the site's en-GB).
      '<clinic-booking sections="booking status" lang="en-GB">',
      // Nothing valid in sections: the settings' default.
      '<clinic-booking sections="booking" mode="inline" lang="de-AT">',
    ]);
    expect(html).not.toContain('<script>alert(1)');
    // One script for the three widgets.
    expect(html.match(/clinic-booking\.js/g)).toHaveLength(1);
  });

  it("offers the block in the Author's editor, its script running as WordPress ships it (no build step)", async () => {
    const page = await freshPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(page, wp, wp.author);
    await page.goto(`${wp.url}/wp-admin/post-new.php`);
    type EditorGlobals = {
      wp: {
        blocks: { getBlockType(name: string): { title: string } | undefined; createBlock(name: string, attributes: object): unknown };
        data: { dispatch(store: string): { insertBlocks(block: unknown): void } };
      };
    };
    await page.waitForFunction(() => (globalThis as unknown as Partial<EditorGlobals>).wp?.blocks?.getBlockType('clinic-booking/booking') !== undefined);
    const title = await page.evaluate(() => {
      const { wp: editor } = globalThis as unknown as EditorGlobals;
      editor.data.dispatch('core/block-editor').insertBlocks(editor.blocks.createBlock('clinic-booking/booking', { sections: 'booking status' }));
      return editor.blocks.getBlockType('clinic-booking/booking')?.title;
    });

    expect(title).toBe('Clinic booking');
    const placeholder = page.locator('.wp-block-clinic-booking-booking .components-placeholder');
    await placeholder.waitFor();
    expect((await placeholder.textContent())?.replace(/\s+/g, ' ')).toContain('Shows: Booking form, Booking status lookup. The widget itself appears on the published page.');
    expect(errors).toEqual([]);
  });

  it('books on the block page: a patient picks a time and sees a reference', async () => {
    const page = await freshPage();
    await page.goto(blockPost.link);
    await widget(page).form.waitFor();
    const steps = bookingSteps(page);
    await steps.chooseTreatment('Dental check-up');
    await steps.chooseDentist('Dr Amara Okafor');
    await steps.pickDay(weekdayAhead(3));
    await steps.pickTime('10:00');
    await steps.fillDetails('Block Bella', '+44 7700 900123');
    await steps.book();

    expect(await waitForReference(page)).toMatch(/\S/);
    const rows = await stack.server.db.selectFrom('appointments').selectAll().where('patient_name', '=', 'Block Bella').execute();
    expect(rows).toMatchObject([{ appointment_date: weekdayAhead(3), appointment_time: '10:00', status: 'Scheduled' }]);
  });

  it('books on the shortcode page through the floating button', async () => {
    const page = await freshPage();
    await page.goto(shortcodePost.link);
    await widget(page).el.locator('[part="open-button"]').click();
    const steps = bookingSteps(page);
    await steps.chooseTreatment('Dental check-up');
    await steps.chooseDentist('Dr Amara Okafor');
    await steps.pickDay(weekdayAhead(4));
    await steps.pickTime('11:30');
    await steps.fillDetails('Shortcode Sam', '+44 7700 900456');
    await steps.book();

    expect(await waitForReference(page)).toMatch(/\S/);
    const rows = await stack.server.db.selectFrom('appointments').selectAll().where('patient_name', '=', 'Shortcode Sam').execute();
    expect(rows).toMatchObject([{ appointment_date: weekdayAhead(4), appointment_time: '11:30', status: 'Scheduled' }]);
  });

  it('loads no widget script on a page without the block or the shortcode', async () => {
    const page = await freshPage();
    const requests = scriptRequests(page);
    await page.goto(plainPost.link, { waitUntil: 'load' });

    expect(await page.locator('text=We are open Monday to Saturday.').count()).toBe(1);
    expect(await page.content()).not.toContain('clinic-booking');
    expect(requests).toEqual([]);
  });

  /** The block page's layout shift (CLS) from its first paint until its widget's content has rendered. */
  async function blockPageShift(viewport: { width: number; height: number }): Promise<number> {
    const page = await freshPage(viewport);
    await page.addInitScript(LAYOUT_SHIFT_OBSERVER);
    await page.goto(blockPost.link);
    await widget(page).form.waitFor();
    // Two frames after the content, so a shift its rendering caused has been reported.
    return page.evaluate(() => {
      const frames = globalThis as unknown as { requestAnimationFrame(callback: () => void): void; __layoutShift: number };
      return new Promise<number>((resolve) => frames.requestAnimationFrame(() => frames.requestAnimationFrame(() => resolve(frames.__layoutShift))));
    });
  }

  describe.each([
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ])('the block page at $width px', (viewport) => {
    it('shifts no more than 0.02 (CLS) while the widget loads', async () => {
      const shift = await blockPageShift(viewport);

      console.log(`wordpress: CLS on the block page at ${viewport.width} px: ${shift.toFixed(4)}`);
      expect(shift).toBeLessThanOrEqual(0.02);
    });
  });

  it("shifts by more than 0.02 without the plugin's reservation CSS, so the measure above sees shifts", async () => {
    const muPlugin = "WPMU_PLUGIN_DIR . '/no-reservation-css.php'";
    await wp.php(`file_put_contents( ${muPlugin}, '<?php add_action( "wp_head", function () { wp_dequeue_style( "clinic-booking" ); }, 1 );' );`);
    try {
      expect(await blockPageShift({ width: 390, height: 844 })).toBeGreaterThan(0.02);
    } finally {
      await wp.php(`unlink( ${muPlugin} );`);
    }
  });
});
