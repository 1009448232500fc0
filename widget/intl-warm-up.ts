/**
 * The first Intl formatter a page makes loads ICU's locale data: 80-100 ms in one block at
 * Lighthouse's 4x CPU slowdown (measured in Chromium), the widget's longest task. That data belongs
 * to the page's process, not to one thread, so a throwaway worker that makes the widget's kinds of
 * formatter first takes the cost off the main thread, while the content request is in flight; the
 * main thread's first formatter then costs a few milliseconds. Once per page.
 *
 * A page whose Content Security Policy refuses blob: workers (worker-src) refuses this one too:
 * the widget then formats as before, on the main thread. docs/embedding.md says what to allow.
 */
let warming = false;

export function warmUpIntl(lang: string): void {
  if (warming) return;
  warming = true;
  const tag = JSON.stringify(lang);
  const script = `new Intl.DateTimeFormat(${tag},{timeStyle:"short",timeZone:"UTC"}).format();new Intl.NumberFormat(${tag},{style:"currency",currency:"EUR"}).format();close()`;
  // In a task of its own: starting a worker takes a few milliseconds, which the module's own
  // evaluation, already the page's longest widget task, should not carry.
  setTimeout(() => {
    try {
      new Worker(URL.createObjectURL(new Blob([script], { type: 'text/javascript' })));
    } catch {
      // Refused (CSP) or no workers: the cost stays on the main thread, as without this.
    }
  });
}
