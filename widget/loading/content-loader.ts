import type { ReactiveControllerHost } from 'lit';
import { loadContent, suspensions, type ClinicContent } from '../api.js';
import { busySeconds, toBffError } from '../bff-error.js';
import { emit } from '../events.js';
import { languageOf } from '../i18n/localize.js';
import { warmUpIntl } from '../intl-warm-up.js';
import { LoadTask } from '../load-task.js';
import { parseSections, resourcesFor } from '../sections/shown-sections.js';
import type { WidgetContextController } from '../widget-context.js';

type Host = ReactiveControllerHost & HTMLElement & { sections: string };

/**
 * The clinic's content for one <clinic-booking> (GET /api/content), a LoadTask: loaded again when the
 * BFF or the sections asked for change; after a busy answer, loaded again by itself, once; and given
 * up for a notice when the BFF says the site is suspended, to any call of this widget's.
 *
 * Add it after the host's WidgetContextController: controllers run in the order they were added,
 * so the load reads this update's apiBase, not the last one's.
 */
export class ContentLoader extends LoadTask<readonly [string, string], ClinicContent> {
  /** Seconds to wait when the last load failed because the clinic's system was busy. */
  busyFor?: number;
  /** The BFF answered 403 site_suspended to a call of this widget's: only the notice shows. */
  suspended = false;
  /** The clinic's phone (its site's, else its organization's) from the last content this widget had, for the suspended notice. */
  phone?: string;
  /** The one automatic retry after a busy answer: pending, or already spent on this failure. */
  private busyRetry?: ReturnType<typeof setTimeout>;
  private busyRetried = false;

  constructor(
    protected override readonly host: Host,
    private readonly context: WidgetContextController,
  ) {
    super(host, {
      // What the sections attribute names whatever the mode (without one: everything), so that a change of
      // mode, which changes what shows by default, needs no new load.
      task: ([apiBase, sections]) => loadContent(apiBase, resourcesFor(parseSections(sections, 'inline'))),
      args: () => [context.value.apiBase, host.sections] as const,
      // Here, once per failed load, not in render(), which runs again on any update in the error state.
      onError: (error) => {
        const failure = toBffError(error);
        emit(host, 'clinic-booking:error', { kind: 'load', status: failure.status, code: failure.code });
        this.busyFor = busySeconds(failure);
        // Busy: load again by itself once Retry-After has passed, once; then it is the visitor's "Try again".
        if (this.busyFor !== undefined && !this.busyRetried) {
          this.busyRetried = true;
          this.busyRetry = setTimeout(() => void this.run(), this.busyFor * 1000);
        }
      },
      onComplete: (content) => {
        this.busyRetried = false;
        this.phone = content.site?.contact_phone || content.organization?.phone || this.phone;
      },
    });
  }

  hostConnected(): void {
    suspensions.addEventListener('suspended', this.toSuspended);
    // While the content loads: the dates, times and fees it brings will need ICU's data (intl-warm-up.ts).
    warmUpIntl(languageOf(this.host));
  }

  hostDisconnected(): void {
    suspensions.removeEventListener('suspended', this.toSuspended);
    clearTimeout(this.busyRetry);
  }

  /** "Try again": at once, and with its own automatic retry should the system still be busy. */
  readonly retry = (): void => {
    clearTimeout(this.busyRetry);
    this.busyRetried = false;
    void this.run();
  };

  /** A call of this widget's BFF was refused as suspended: the notice shows instead of anything else. */
  private readonly toSuspended = (event: Event) => {
    if (!this.suspended && (event as CustomEvent<string>).detail.startsWith(`${this.context.value.apiBase}/`)) {
      this.suspended = true;
      this.host.requestUpdate();
    }
  };
}
