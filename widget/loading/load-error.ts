import { html, nothing, type TemplateResult } from 'lit';
import { telLink } from '../booking/appointment-view.js';
import type { InstanceStyles } from '../instance-styles.js';
import { themeStyle } from '../theme.js';
import type { WidgetContext } from '../widget-context.js';
import type { ContentLoader } from './content-loader.js';

/**
 * The BFF cannot be reached or refused the content, with "Try again" and the page's fallback (the slot).
 * A suspended site (403 site_suspended, to any call) gives way to one line that sends the visitor to the
 * phone instead: the clinic's own when this widget has had its content, else the fallback, and no retry.
 */
export function renderLoadError({ suspended, busyFor, phone: lastPhone, retry }: ContentLoader, { t, dir }: WidgetContext, styles: InstanceStyles): TemplateResult {
  const phone = suspended && lastPhone;
  // The default theme: the clinic's own colours came with the content that failed to load.
  styles.set(`.load-error{${themeStyle(undefined)}}`);
  return html`<div class="load-error" dir=${dir} role="alert" part="load-error">
    <p>${suspended ? t.suspended : busyFor === undefined ? t.loadError : t.errBusy(busyFor)}${phone ? [' ', telLink(phone)] : nothing}</p>
    ${suspended ? nothing : html`<button class="button" type="button" @click=${retry}>${t.retry}</button>`}
    ${phone ? nothing : html`<slot></slot>`}
  </div>`;
}
