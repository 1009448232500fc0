import { html, type TemplateResult } from 'lit';
import type { InstanceStyles } from '../instance-styles.js';
import type { WidgetContext } from '../widget-context.js';

/**
 * Until the content has come: grey bones in the space the page reserved (`held`, reserved-height.ts; none:
 * the skeleton's own), announced as loading; nothing visible when only the floating button will show.
 */
export function renderSkeleton({ t, dir }: WidgetContext, held: number, floating: boolean, styles: InstanceStyles): TemplateResult {
  styles.set(held ? `.skeleton{height:${held}px}` : '');
  return html`<div class="skeleton ${floating ? 'visually-hidden' : ''}" dir=${dir} aria-busy="true" role="status">
    <span class="visually-hidden">${t.loading}</span>
    <div class="bone tall"></div>
    <div class="bone"></div>
    <div class="bone short"></div>
  </div>`;
}
