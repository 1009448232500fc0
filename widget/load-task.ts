import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * The part of @lit/task the widget used, in a third of its bytes (the widget's JavaScript is held to
 * 25 KiB as sent): a load run from the host's update whenever its arguments change, the last run's
 * status and value, an abort signal for a run overtaken by the next, and render() by status. Its
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
    private readonly host: ReactiveControllerHost,
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
    if (this.status === PENDING) this.abort?.abort();
    this.status = PENDING;
    this.host.requestUpdate();
    const run = ++this.runs;
    this.abort = new AbortController();
    let value: T | undefined;
    let failure: { error: unknown } | undefined;
    try {
      value = await this.options.task(args, { signal: this.abort.signal });
    } catch (error) {
      failure = { error };
    }
    if (run !== this.runs) return;
    if (failure) this.options.onError?.(failure.error);
    else this.options.onComplete?.(value as T);
    this.status = failure ? ERROR : COMPLETE;
    this.value = value;
    this.host.requestUpdate();
  }

  render<R>(renderers: { initial: () => R; pending: () => R; complete: (value: T) => R; error: () => R }): R {
    const { status } = this;
    return status === PENDING ? renderers.pending() : status === COMPLETE ? renderers.complete(this.value as T) : status === ERROR ? renderers.error() : renderers.initial();
  }
}
