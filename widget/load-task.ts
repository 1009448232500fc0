import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * The part of @lit/task the widget used, in a third of its bytes (the widget's JavaScript is held to
 * 25 KiB as sent): a load run from the host's update whenever its arguments change, the last run's
 * status and value, and an abort signal for a run overtaken by the next. Its
 * timing is @lit/task's: the run starts, and shows as pending, in the update that changed the
 * arguments; only the latest run's outcome counts; the value is kept while a new run is pending and
 * is undefined after a failure.
 */
export const INITIAL = 0;
export const PENDING = 1;
export const COMPLETE = 2;
export const ERROR = 3;
export type LoadStatus = typeof INITIAL | typeof PENDING | typeof COMPLETE | typeof ERROR;

export interface LoadTaskOptions<A extends readonly unknown[], T> {
  task: (args: A, options: { signal: AbortSignal }) => Promise<T> | T;
  args: () => A;
  onComplete?: (value: T) => void;
  onError?: (error: unknown) => void;
}

export class LoadTask<A extends readonly unknown[], T> implements ReactiveController {
  status: LoadStatus = INITIAL;
  value?: T;
  private lastArgs?: A;
  private runs = 0;
  private abort?: AbortController;

  constructor(
    protected readonly host: ReactiveControllerHost,
    private readonly options: LoadTaskOptions<A, T>,
  ) {
    host.addController(this);
  }

  hostUpdate(): void {
    const args = this.options.args();
    const last = this.lastArgs;
    if (!last || args.some((arg, i) => !Object.is(arg, last[i]))) void this.run(args);
  }

  /** Runs it now (with the current arguments unless given), as "Try again" does. */
  async run(args = this.options.args()): Promise<void> {
    this.lastArgs = args;
    // The run before, if still going, is overtaken (aborting one that has ended does nothing).
    this.abort?.abort();
    this.status = PENDING;
    this.host.requestUpdate();
    const run = ++this.runs;
    this.abort = new AbortController();
    let value: T | undefined;
    let failed = false;
    try {
      value = await this.options.task(args, { signal: this.abort.signal });
    } catch (error) {
      failed = true;
      if (run === this.runs) this.options.onError?.(error);
    }
    if (run !== this.runs) return;
    if (!failed) this.options.onComplete?.(value as T);
    this.status = failed ? ERROR : COMPLETE;
    this.value = value;
    this.host.requestUpdate();
  }
}
