import { emulateMedia } from '@web/test-runner-commands';

/**
 * The display modes a patient's system can ask for, emulated where the engine can, each answering whether the
 * page now matches it: where it does not, a test skips rather than pass without having looked.
 */

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
