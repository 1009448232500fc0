import { executeServerCommand } from '@web/test-runner-commands';

/**
 * Sizes the page's viewport in px, in every engine the tests run in: scripts/wtr/viewport-plugin.mjs answers it
 * (@web/test-runner-commands' own setViewport cannot size WebKit's window). Resolves once the page has that size.
 */
export async function setViewport(size: { width: number; height: number }): Promise<void> {
  await executeServerCommand('viewport', size);
}
