import { emulateMedia, executeServerCommand } from '@web/test-runner-commands';

/**
 * The display modes a patient's system can ask for, emulated where the engine can, each answering whether the
 * page now matches it: where it does not, a test skips rather than pass without having looked.
 */

/**
 * Windows' contrast themes (forced colours), by scripts/wtr/forced-colors-plugin.mjs: only Chromium's DevTools
 * protocol emulates them (Firefox and WebKit have no such switch for a test to flip).
 */
export async function forcedColors(active: boolean): Promise<boolean> {
  await executeServerCommand('forced-colors', { active });
  return matchMedia('(forced-colors: active)').matches === active;
}

/**
 * The system's "reduce motion" setting: @web/test-runner-commands' emulateMedia. Only Chromium takes it here:
 * puppeteer emulates it over the DevTools protocol, refuses it to Firefox (which it drives over WebDriver BiDi),
 * and the command throws for a launcher it does not know (WebKit's WebDriver).
 */
export async function reducedMotion(reduce: boolean): Promise<boolean> {
  try {
    await emulateMedia({ reducedMotion: reduce ? 'reduce' : 'no-preference' });
  } catch {
    return false;
  }
  return matchMedia('(prefers-reduced-motion: reduce)').matches === reduce;
}
