import { css } from 'lit';

/**
 * Text blocks take their direction from their own first letters (unicode-bidi: plaintext): a clinic's
 *   English text in an Arabic widget (or the reverse) reads in its own direction, its full stop at its end.
 * :host is a flow root: the margins of what it shows (the skeleton, the first section) stay inside
 * it, so the element itself never moves when one replaces the other.
 *
 * Tokens and base rules every part of the widget uses. Public custom
 * properties (--clinic-booking-*) feed private ones (--_*), see theme.ts.
 */
export const sharedStyles = css`
  :is(p, h2, h3, h4, li, dt, dd, th, td, label, summary, figcaption, blockquote) {
    unicode-bidi: plaintext;
  }
  :host {
    display: flow-root;
    container-type: inline-size;
    color: var(--clinic-booking-text, #1e293b);
    font-family: var(--clinic-booking-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    line-height: 1.5;
    --_radius: var(--clinic-booking-radius, 0.5rem);
    --_surface: var(--clinic-booking-surface, #ffffff);
    --_muted: var(--clinic-booking-muted, #475569);
    --_border: var(--clinic-booking-border, #cbd5e1);
    --_error: var(--clinic-booking-error, #b91c1c);
    --_gap: var(--clinic-booking-gap, 1rem);
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  h2,
  h3,
  h4 {
    color: var(--_dark);
    line-height: 1.25;
    margin: 0 0 0.5em;
  }
  h2 {
    font-size: 1.5rem;
  }
  h3 {
    font-size: 1.125rem;
  }
  p {
    margin: 0 0 0.75em;
  }
  a {
    color: var(--_link);
  }
  img {
    max-width: 100%;
    height: auto;
  }
  section {
    margin-block: calc(var(--_gap) * 2);
  }
  .button {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.5rem;
    min-height: 2.75rem;
    padding: 0.5rem 1.25rem;
    border: 2px solid var(--_primary);
    border-radius: var(--_radius);
    background: var(--_primary);
    color: var(--_on-primary);
    font: inherit;
    font-weight: 600;
    /* A link drawn as a button centres a wrapped label as a button element does ("Zum Kalender hinzufügen"). */
    text-align: center;
    cursor: pointer;
    text-decoration: none;
  }
  .button.secondary {
    background: transparent;
    color: var(--_link);
  }
  .button[disabled] {
    opacity: 0.6;
    cursor: progress;
  }
  /*
   * A phone number reads left to right in every language, unbroken: in Arabic its groups were reordered (0958 7946 20 +44).
   * So does the e-mail field, as browsers make the phone's: typed right to left, "jane." showed as ".jane".
   */
  [href^='tel:'],
  [type='email'] {
    direction: ltr;
    unicode-bidi: isolate;
    white-space: nowrap;
  }
  :focus-visible {
    outline: 3px solid var(--_secondary);
    outline-offset: 2px;
  }
  .cards {
    display: grid;
    gap: var(--_gap);
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 16rem), 1fr));
    grid-auto-rows: 1fr;
    list-style: none;
    padding: 0;
    margin: 0;
  }
  .card {
    display: flex;
    flex-direction: column;
    gap: 0.5rem;
    padding: var(--_gap);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .card .button {
    margin-block-start: auto;
  }
  .muted {
    color: var(--_muted);
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  @media (prefers-reduced-motion: reduce) {
    * {
      animation: none !important;
      transition: none !important;
      scroll-behavior: auto !important;
    }
  }
`;
