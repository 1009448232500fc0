import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Dialog, Page } from 'playwright-core';
import { systemClock } from '../../platform/clock.js';
import { DEFAULT_BOOKING_RULES } from '../../contract/rules/booking-rules.js';
import { startBff } from '../bff/support/bff-harness.js';
import { launchBrowser, newContext } from '../e2e/support/browser.js';
import { startE2eStack, WIDGET_DIR, type E2eStack } from '../e2e/support/stack.js';
import { freePort } from '../support/free-port.js';
import { buildPluginZip } from '../../scripts/wordpress/build-zip.mjs';
import { openSettings, settingsForm, signIn, uploadAndActivatePlugin } from './support/wp-admin.js';
import { startWordPress, wordPressLaneRuns, type RunningWordPress } from './support/wordpress.js';

const lane = await wordPressLaneRuns();

/**
 * The plugin on a real WordPress (Debian's, on PHP's built-in server and a MariaDB database of its own): its
 * zip uploaded and activated through wp-admin, then Settings > Clinic booking as an administrator uses it.
 */
describe.runIf(lane.runs)('the WordPress plugin: install and settings', () => {
  let stack: E2eStack;
  let wp: RunningWordPress;
  let browser: Browser;
  let context: BrowserContext;
  let admin: Page;
  let zipDir: string;
  let installedRow = '';

  beforeAll(async () => {
    if (lane.missing.length > 0) throw new Error(`the WordPress lane needs ${lane.missing.join('; ')} (scripts/wordpress/install-wordpress.sh)`);
    const port = await freePort();
    stack = await startE2eStack({ allowedOrigins: [`http://127.0.0.1:${port}`] });
    wp = await startWordPress(port);
    zipDir = mkdtempSync(join(tmpdir(), 'clinic-booking-zip-'));
    const zip = buildPluginZip(join(zipDir, 'clinic-booking.zip'));
    browser = await launchBrowser();
    context = await newContext(browser);
    admin = await context.newPage();
    await signIn(admin, wp, wp.admin);
    installedRow = await uploadAndActivatePlugin(admin, wp, zip);
  }, 180_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await wp?.close();
    await stack?.close();
    if (zipDir) rmSync(zipDir, { recursive: true, force: true });
  });

  it("installs from its zip through wp-admin's Upload Plugin and is active", async () => {
    expect(installedRow).toContain('Clinic booking');
    expect(installedRow).toContain('Deactivate');
    expect(installedRow).toContain('Settings');
    const active = await wp.php("require_once ABSPATH . 'wp-admin/includes/plugin.php'; echo is_plugin_active( 'clinic-booking/clinic-booking.php' ) ? 'yes' : 'no';");
    expect(active).toBe('yes');
  });

  it('saves the settings, cuts a pasted script URL back to the BFF, and escapes a hostile phone on every page', async () => {
    await openSettings(admin, wp);
    const form = settingsForm(admin);
    // A new site's defaults: the booking form alone, in the site's language (en_GB: en-GB).
    expect(await form.section('booking').isChecked()).toBe(true);
    expect(await form.section('site').isChecked()).toBe(false);
    expect(await form.lang.getAttribute('placeholder')).toBe('en-GB');

    const dialogs: string[] = [];
    const seeDialog = (dialog: Dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    };
    admin.on('dialog', seeDialog);
    await form.widgetUrl.fill(`${stack.bff.baseUrl}/widget/clinic-booking.js`);
    await form.phone.fill('+44 20 7946 0958 "><script>alert(1)</script><img src=x onerror=alert(2)>');
    await Promise.all([admin.waitForURL(/settings-updated=true/), form.save.click()]);

    expect(await form.notices.allTextContents()).toEqual([expect.stringContaining('Settings saved.')]);
    expect(await form.widgetUrl.inputValue()).toBe(`${stack.bff.baseUrl}/`);
    // Tags are gone on save; what remains (a quote, a >) is text in the field, never markup.
    expect(await form.phone.inputValue()).toBe('+44 20 7946 0958 ">');
    expect(await admin.content()).toContain('value="+44 20 7946 0958 &quot;&gt;"');
    expect(await admin.locator('img[src="x"]').count()).toBe(0);

    const saved = JSON.parse(await wp.php("echo wp_json_encode( get_option( 'clinic_booking_settings' ) );")) as Record<string, string>;
    expect(saved).toMatchObject({ widget_url: `${stack.bff.baseUrl}/`, sections: 'booking', phone: '+44 20 7946 0958 ">' });

    // On the site too: the fallback link dials the digits, and shows the rest as text.
    const link = await wp.php(
      "echo get_permalink( wp_insert_post( array( 'post_title' => 'Phone', 'post_content' => '[clinic_booking]', 'post_status' => 'publish' ) ) );",
    );
    const visitor = await context.newPage();
    visitor.on('dialog', seeDialog);
    await visitor.goto(link);
    expect(await (await fetch(link)).text()).toContain('<a href="tel:+442079460958">Call to book: +44 20 7946 0958 &quot;&gt;</a>');
    expect(await visitor.locator('.clinic-booking-fallback a').textContent()).toBe('Call to book: +44 20 7946 0958 ">');
    await visitor.close();
    admin.off('dialog', seeDialog);
    expect(dialogs).toEqual([]);
  });

  it('refuses a language the widget does not speak and keeps the one saved before', async () => {
    await openSettings(admin, wp);
    const form = settingsForm(admin);
    await form.lang.fill('fr-CA');
    await Promise.all([admin.waitForURL(/settings-updated=true/), form.save.click()]);
    expect(await form.lang.inputValue()).toBe('fr-CA');

    await form.lang.fill('xx-YY');
    await Promise.all([admin.waitForURL(/settings-updated=true/), form.save.click()]);
    expect((await form.notices.allTextContents()).join(' ')).toContain('The language must be one the widget speaks (en, de, fr, es, nl, ar)');
    expect(await form.lang.inputValue()).toBe('fr-CA');

    await form.lang.fill('');
    await Promise.all([admin.waitForURL(/settings-updated=true/), form.save.click()]);
    expect(await form.lang.inputValue()).toBe('');
  });

  it('takes a hex theme colour, refuses anything else, and gives the saved one to the widget as --clinic-booking-primary', async () => {
    await openSettings(admin, wp);
    const form = settingsForm(admin);
    // The field's pattern stops this in the browser; a request that skips the browser meets the server's check.
    await form.themeColor.evaluate((input) => input.removeAttribute('pattern'));
    await form.themeColor.fill('red; } body { display: none');
    await Promise.all([admin.waitForURL(/settings-updated=true/), form.save.click()]);
    expect((await form.notices.allTextContents()).join(' ')).toContain('The theme colour must be a hex colour such as #0f766e.');
    expect(await form.themeColor.inputValue()).toBe('');

    await form.themeColor.fill('#1d4ed8');
    await Promise.all([admin.waitForURL(/settings-updated=true/), form.save.click()]);
    expect(await form.themeColor.inputValue()).toBe('#1d4ed8');
    const link = await wp.php(
      "echo get_permalink( wp_insert_post( array( 'post_title' => 'Colour', 'post_content' => '[clinic_booking]', 'post_status' => 'publish' ) ) );",
    );
    const html = await (await fetch(link)).text();
    expect(html).toContain('clinic-booking { --clinic-booking-primary: #1d4ed8; }');
    expect(html).not.toContain('display: none');
  });

  describe('Check connection', () => {
    async function checkWith(widgetUrl: string): Promise<{ problem: string | null; text: string }> {
      await wp.php(
        "$s = get_option( 'clinic_booking_settings' ); $s['widget_url'] = $args[0]; update_option( 'clinic_booking_settings', $s );",
        widgetUrl,
      );
      await openSettings(admin, wp);
      const form = settingsForm(admin);
      await Promise.all([admin.waitForURL(/options-general\.php\?page=clinic-booking/), form.check.click()]);
      return {
        problem: await form.checkResult.getAttribute('data-problem'),
        text: ((await form.checkResult.textContent()) ?? '').replace(/\s+/g, ' ').trim(),
      };
    }

    it('says the connection works when the BFF allows the site', async () => {
      const { problem, text } = await checkWith(`${stack.bff.baseUrl}/`);
      expect(problem).toBe('');
      expect(text).toBe(`Connected: ${stack.bff.baseUrl}/ serves the widget, and allows pages of ${wp.url} to use it.`);
    });

    it("names the site's origin and ALLOWED_ORIGINS when the BFF does not allow it", async () => {
      const refusing = await startBff(
        stack.server.api,
        stack.clinic,
        { allowedOrigins: ['https://another-clinic.example'], widgetDir: WIDGET_DIR, bookingRules: { ...DEFAULT_BOOKING_RULES } },
        systemClock,
      );
      const { problem, text } = await checkWith(`${refusing.baseUrl}/`);
      await refusing.close();

      expect(problem).toBe('origin_refused');
      expect(text).toContain(`add ${wp.url} to ALLOWED_ORIGINS, or for a site of an agency's BFF to its origins with \`sites set-origins\``);
      expect(text).toContain(`The BFF says: ${wp.url} is not in this BFF's ALLOWED_ORIGINS`);
    });

    it('says the BFF cannot be reached when nothing listens there', async () => {
      const closed = await freePort();
      const { problem, text } = await checkWith(`http://127.0.0.1:${closed}/`);
      expect(problem).toBe('unreachable');
      expect(text).toContain(`WordPress could not reach http://127.0.0.1:${closed}/api/origin-check`);
    });

    it('says an address that answers but is no BFF is not the widget', async () => {
      const { problem, text } = await checkWith(`${wp.url}/`);
      expect(problem).toBe('not_widget');
      // WordPress answers any path with a page of its own: 200, and HTML.
      expect(text).toContain(`${wp.url}/api/origin-check answered (HTTP 200), but not as a clinic-booking BFF does`);
    });
  });

  // Last: it removes the plugin this file's other tests use.
  it('deletes its settings when an administrator deletes the plugin in wp-admin (uninstall.php)', async () => {
    await wp.php("update_option( 'clinic_booking_settings', array( 'phone' => '020 7946 0958' ) ); set_transient( 'clinic_booking_check_1', array( 'ok' => true ), 300 );");
    await admin.goto(`${wp.url}/wp-admin/plugins.php`);
    const row = admin.locator('tr[data-slug="clinic-booking"]');
    await Promise.all([admin.waitForURL(/deactivate=true/), row.locator('.deactivate a').click()]);
    admin.once('dialog', (dialog) => void dialog.accept());
    await row.locator('a.delete').click();
    await admin.locator('tr.plugin-deleted-tr', { hasText: 'Clinic booking was successfully deleted.' }).waitFor();

    expect(await wp.php("echo get_option( 'clinic_booking_settings' ) === false ? 'none' : 'saved';")).toBe('none');
    expect(await wp.php("echo get_transient( 'clinic_booking_check_1' ) === false ? 'none' : 'kept';")).toBe('none');
    expect(await wp.php("echo is_dir( WP_PLUGIN_DIR . '/clinic-booking' ) ? 'there' : 'gone';")).toBe('gone');
  });
});
