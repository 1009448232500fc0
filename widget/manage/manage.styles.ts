import { css } from 'lit';

/**
 * The manage view borrows the booking form's look (bookingFormStyles: the card, the calendar, the
 * times, the badges, the failure box); these are its own pieces. Its picker is a form inside the
 * card, without a second border. A chip's remove button is 44 px square, the chip around it as tall.
 */
export const manageStyles = css`
  :host {
    display: block;
  }
  .manage,
  .step {
    display: grid;
    gap: var(--_gap);
  }
  .manage > *,
  .step > *,
  .outcome > :last-child {
    margin: 0;
  }
  .step,
  form.step {
    padding: var(--_gap) 0 0;
    border: 0 solid var(--_border);
    border-block-start-width: 1px;
    border-radius: 0;
    background: none;
  }
  /* Headings take focus to announce a new step, not to be acted on: no ring around them. */
  [tabindex='-1']:focus {
    outline: none;
  }
  /* On a phone, a row's buttons each take the row: one thumb-wide target under another. */
  @container (max-width: 30rem) {
    .row > .button {
      flex: 1 1 100%;
    }
  }
  h4 {
    font-size: 1rem;
  }
  h5 {
    margin: 0 0 0.5rem;
    font-size: 0.875rem;
    color: var(--_muted);
  }
  /* The live region stays rendered while empty (a hidden one may go unannounced when it fills), out of the grid's flow. */
  .outcomes:empty {
    position: absolute;
  }
  .outcome {
    padding: 0.75rem 1rem;
    border-inline-start: 4px solid var(--_primary);
    border-radius: var(--_radius);
    background: color-mix(in srgb, var(--_primary) 8%, var(--_surface));
  }
  .asked {
    margin: 0 0 0.75em;
    padding-inline-start: 1.5rem;
  }
  .clinic-text {
    white-space: pre-line;
  }
  .chips {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin: 0 0 0.5rem;
    padding: 0;
    list-style: none;
  }
  .chip {
    display: inline-flex;
    align-items: center;
    gap: 0.5rem;
    min-height: 2.75rem;
    padding-inline-start: 0.375rem;
    border: 2px solid var(--_primary);
    border-radius: 1.5rem;
    background: color-mix(in srgb, var(--_primary) 10%, var(--_surface));
    font-weight: 600;
  }
  /* A long day's name (Arabic's) breaks the label evenly, never its last word alone. */
  .chip > span:not(.n) {
    text-wrap: balance;
  }
  .chip .n {
    display: inline-grid;
    place-items: center;
    inline-size: 1.75rem;
    block-size: 1.75rem;
    border-radius: 50%;
    background: var(--_primary);
    color: var(--_on-primary);
    font-size: 0.875rem;
  }
  .chip button {
    min-inline-size: 2.75rem;
    min-block-size: 2.75rem;
    border: 0;
    border-radius: 1.5rem;
    background: none;
    color: inherit;
    font: inherit;
    font-size: 1.25rem;
    line-height: 1;
    cursor: pointer;
  }
  .chip button:hover {
    background: color-mix(in srgb, var(--_primary) 20%, var(--_surface));
  }
  .button.danger {
    border-color: var(--_error);
    background: var(--_error);
    color: #fff;
  }
  .link input {
    flex: 1 1 14rem;
    /* A URL reads left to right in every language. */
    direction: ltr;
    font-size: 0.875rem;
  }
  .link .muted {
    margin: 0;
    font-size: 0.875rem;
  }
`;
