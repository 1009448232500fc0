/** A source file of the widget in a stack frame: served at /widget/… (a test's are under /test/widget/). */
const WIDGET_FILE = /https?:\/\/[^/]+\/widget\//;

/**
 * A fake clock for the waits the widget chooses itself (a Retry-After, the
 * pauses before it sends a booking again): while installed, each timer the
 * widget's own code sets for `longMs` or more is noted and runs at the next
 * task, as if that much time had passed at once. Timers of the tests and of
 * the test libraries (waitUntil's bound, say) run as asked. A test then
 * checks the waits the widget asked for, and what it did after them, without
 * spending them; a wait the widget never asked for is a retry it never makes.
 */
export function skipWidgetWaits(longMs = 500): { asked: number[]; restore(): void } {
  const real = window.setTimeout;
  const asked: number[] = [];
  const skipping = (handler: TimerHandler, timeout = 0, ...args: unknown[]): number => {
    // The frames that name a file: [0] is this function, [1] whoever called setTimeout. Each engine writes a frame
    // its own way (V8 "    at f (url:1:2)" after a line of the message, Firefox and WebKit "f@url:1:2"), all with the URL.
    const frames = (new Error().stack ?? '').split('\n').filter((frame) => /https?:\/\//.test(frame));
    const skipped = timeout >= longMs && WIDGET_FILE.test(frames[1] ?? '');
    if (skipped) asked.push(timeout);
    return Reflect.apply(real, window, [handler, skipped ? 0 : timeout, ...args]) as number;
  };
  window.setTimeout = skipping as typeof window.setTimeout;
  return {
    asked,
    restore: () => {
      if (window.setTimeout === (skipping as typeof window.setTimeout)) window.setTimeout = real;
    },
  };
}
