import type { Page } from 'playwright-core';
import type { RunningWordPress } from './wordpress.js';

/** Signs in at wp-login.php, as a person does, and waits for the dashboard. */
export async function signIn(page: Page, wp: RunningWordPress, user: { login: string; password: string }): Promise<void> {
  await page.goto(`${wp.url}/wp-login.php`);
  await page.locator('#user_login').fill(user.login);
  await page.locator('#user_pass').fill(user.password);
  await Promise.all([page.waitForURL(/\/wp-admin\//), page.locator('#wp-submit').click()]);
}

/**
 * Plugins > Add New > Upload Plugin with the zip, then "Activate Plugin", as an administrator does in wp-admin.
 * Returns the text of the plugins list's row for the plugin once active.
 */
export async function uploadAndActivatePlugin(page: Page, wp: RunningWordPress, zip: string): Promise<string> {
  await page.goto(`${wp.url}/wp-admin/plugin-install.php?tab=upload`);
  await page.locator('#pluginzip').setInputFiles(zip);
  await Promise.all([page.waitForURL(/update\.php\?action=upload-plugin/), page.locator('#install-plugin-submit').click()]);
  const installed = (await page.locator('.wrap').textContent()) ?? '';
  if (!installed.includes('Plugin installed successfully')) throw new Error(`the upload did not install the plugin: ${installed.replace(/\s+/g, ' ').slice(0, 500)}`);
  await Promise.all([page.waitForURL(/plugins\.php/), page.locator('a.button-primary', { hasText: 'Activate Plugin' }).click()]);
  return ((await page.locator('tr[data-slug="clinic-booking"]').textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

export interface RestPost {
  id: number;
  link: string;
  content: { raw: string; rendered: string };
}

/** Creates and publishes a post as `user` through WordPress's REST API, with an application password. */
export async function publishPostAs(
  wp: RunningWordPress,
  user: { login: string; appPassword: string },
  title: string,
  content: string,
): Promise<RestPost> {
  const response = await fetch(`${wp.url}/?rest_route=/wp/v2/posts&context=edit`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${user.login}:${user.appPassword}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ title, content, status: 'publish' }),
  });
  const body = (await response.json()) as RestPost & { message?: string };
  if (response.status !== 201) throw new Error(`POST /wp/v2/posts answered ${response.status}: ${body.message ?? JSON.stringify(body)}`);
  return body;
}

/** The settings form of Settings > Clinic booking. */
export function settingsForm(page: Page) {
  return {
    widgetUrl: page.locator('#clinic_booking_widget_url'),
    section: (name: string) => page.locator(`#clinic_booking_sections input[value="${name}"]`),
    mode: page.locator('#clinic_booking_mode'),
    lang: page.locator('#clinic_booking_lang'),
    themeColor: page.locator('#clinic_booking_theme_color'),
    phone: page.locator('#clinic_booking_phone'),
    save: page.locator('#submit'),
    check: page.locator('#clinic-booking-check'),
    checkResult: page.locator('#clinic-booking-check-result'),
    notices: page.locator('.wrap .notice, .wrap .settings-error'),
  };
}

/** Opens Settings > Clinic booking. */
export async function openSettings(page: Page, wp: RunningWordPress): Promise<void> {
  await page.goto(`${wp.url}/wp-admin/options-general.php?page=clinic-booking`);
}
