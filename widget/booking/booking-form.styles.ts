import { css } from 'lit';

export const bookingFormStyles = css`
  form {
    display: grid;
    gap: var(--_gap);
    padding: var(--_gap);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  /*
   * The details: one field under another, every one as wide as the others, at most 32rem (about
   * 60 characters of the note a line). Side by side, name and phone stood half as wide as the
   * address and note beneath them, two widths for fields alike; wider, a name field is mostly empty.
   */
  .fields {
    display: grid;
    gap: var(--_gap);
    max-inline-size: 32rem;
  }
  .field {
    display: grid;
    gap: 0.25rem;
    align-content: start;
  }
  label {
    font-weight: 600;
  }
  input,
  textarea {
    width: 100%;
    min-height: 2.75rem;
    padding: 0.5rem 0.75rem;
    font: inherit;
    color: inherit;
    background: #fff;
    border: 1px solid #64748b;
    border-radius: var(--_radius);
  }
  [aria-invalid='true'] {
    border: 2px solid var(--_error);
  }
  .required {
    color: var(--_error);
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  .choices {
    display: grid;
    gap: 0.5rem;
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 12rem), 1fr));
    grid-auto-rows: 1fr;
  }
  .choice {
    position: relative;
    display: grid;
    align-content: start;
    justify-content: start;
    text-align: start;
    font-weight: 400;
    padding-inline: 1rem 1.5rem;
  }
  .choice::after {
    content: '';
    position: absolute;
    inset-block-start: 0.4rem;
    inset-inline-end: 0.5rem;
    inline-size: 0.3rem;
    block-size: 0.6rem;
    border: solid;
    border-width: 0 2px 2px 0;
    transform: rotate(45deg);
    opacity: 0;
  }
  .button[aria-pressed='true'],
  [aria-selected='true'] .day.day {
    background-color: var(--_primary);
    color: var(--_on-primary);
  }
  /* Longhands: WebKit drops a text-decoration shorthand that names a thickness, and the underline with it. */
  [aria-selected='true'] .day {
    text-decoration: underline;
    text-decoration-thickness: 2px;
  }
  .button[aria-pressed='true']::after {
    opacity: 1;
  }
  [aria-pressed='true'] .muted {
    color: inherit;
  }
  /*
   * As many columns as "10:15 AM" fits in, in DejaVu Sans (the widest usual font): four from a container
   * of 358 px (a 390 px phone's page) and beside the calendar at 768, so that a phone shows the day step,
   * a period's times included, in a screen or so.
   */
  .slots {
    grid-template-columns: repeat(auto-fill, minmax(4.6rem, 1fr));
    gap: 0.25rem;
  }
  .slots .choice {
    place-content: center;
    padding: 0;
    font-size: 0.8125rem;
    font-weight: 600;
    white-space: nowrap;
  }
  .choice:disabled,
  .periods [disabled],
  .month [aria-disabled='true'],
  .day[aria-disabled='true'] {
    opacity: 1;
    color: #64748b;
    background: 0;
    border: 2px dashed var(--_border);
    font-weight: 400;
    cursor: not-allowed;
  }
  /*
   * The gap between days is their clear border, inside the 44 px target, so the weeks stand no further
   * apart (the fills below set only the colour, which keeps this clip).
   */
  .day.day {
    border-color: transparent;
    background-clip: padding-box;
  }
  /* A bookable day; the open period of the times, marked also by a thicker edge, which forced colours keep. */
  .day.open,
  .periods [aria-expanded='true'] {
    font-weight: 700;
    background-color: color-mix(in srgb, var(--_primary) 12%, var(--_surface));
  }
  /* Stacked, the times a full gap under the calendar: half of it cramped a month whose sixth week has days. */
  .when {
    display: grid;
    gap: var(--_gap);
    align-items: start;
  }
  @container (min-width: 45rem) {
    .when {
      grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
    }
  }
  /*
   * The periods' headers side by side (on two lines where "Nachmittag" and the others do not fit on one),
   * the open one's times under them; each its name over its count of free times.
   */
  .periods {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem;
    margin-block-end: 0.5rem;
  }
  /*
   * As wide as each other where they fit; the text at the start, so that a count that changes (while a
   * day's times load, or another day's) moves nothing; the open one's thicker edge in its padding's place.
   */
  .periods .button {
    flex: 1;
    flex-direction: column;
    align-items: start;
    gap: 0;
    padding: 0 0.5rem 2px;
    line-height: 1.2;
  }
  .periods [aria-expanded='true'] {
    border-block-end-width: 4px;
    padding-block-end: 0;
  }
  .periods small {
    font-weight: 400;
  }
  [inert] {
    opacity: 0.6;
  }
  .badge {
    padding: 0.125rem 0.625rem;
    border-radius: 1rem;
    font-size: 0.875rem;
    font-weight: 600;
    background: #f1f5f9;
  }
  .badge[data-status='Scheduled'] {
    color: #166534;
    background: #dcfce7;
  }
  .badge[data-status='Cancelled'] {
    color: #991b1b;
    background: #fee2e2;
  }
  .month {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem;
  }
  /* Square month arrows (the touch size, no wider), so "Dezember 2026" keeps one line at 320 px. */
  .month .button {
    min-width: 2.75rem;
    padding-inline: 0;
  }
  table {
    width: 100%;
    border-collapse: collapse;
    table-layout: fixed;
  }
  th {
    font-size: 0.75rem;
    color: var(--_muted);
  }
  td {
    padding: 0;
  }
  /* The same height for a week left empty (the sixth, in most months) as for one with days. */
  tbody tr {
    height: 2.75rem;
  }
  td .button {
    width: 100%;
    padding: 0;
  }
  /*
   * Every list of an appointment's details (the summary from the second step to the review, the
   * confirmation, the status and manage cards) one block: a label beside its value, the labels' column
   * as wide on every step (not as wide as its longest label, which grew as rows came), rows only added.
   * 10rem holds every language's labels on one line or two (overflow-wrap breaks a longer word).
   */
  dl {
    display: grid;
    grid-template-columns: 10rem 1fr;
    gap: 0.5rem 1rem;
    align-items: baseline;
    /* No margin above: a status card opens with it, and a margin there left an empty band above "Status". */
    margin: 0 0 1em;
    padding: 0.75rem 1rem;
    border-radius: var(--_radius);
    background: color-mix(in srgb, var(--_primary) 6%, var(--_surface));
    overflow-wrap: anywhere;
  }
  dt {
    font-size: 0.875rem;
    color: var(--_muted);
  }
  /*
   * A value in another script (a Latin name in Arabic) stays on the widget's side, beside its label:
   * the line takes the widget's direction, the value inside it (a bdi, detailList) its own, so "42
   * Harley Crescent" keeps its order. As a paragraph of its own direction it stood across the list.
   */
  dd {
    margin: 0;
    unicode-bidi: isolate;
  }
  /* In the form its grid's gap parts the summary from the step below; the margin too doubled it. */
  form dl {
    margin: 0;
  }
  /*
   * In a narrow container each label stands above its value, the value on the whole width: one
   * column, the value drawn up to its label (the rows' gap parts one pair from the next).
   */
  @container (max-width: 30rem) {
    dl {
      grid-template-columns: 1fr;
    }
    dd {
      margin-top: -0.5rem;
    }
  }
  .error {
    margin: 0;
    font-size: 0.875rem;
    font-weight: 600;
    color: var(--_error);
  }
  .failure {
    padding: 0.75rem 1rem;
    border-inline-start: 4px solid var(--_error);
    background: #fef2f2;
    color: #7f1d1d;
  }
  /*
   * A box and its label beside it, on a row of their own: the privacy consent, the e-mail opt-in.
   * The box without the browser's margins (2 to 5 px a side) lines up with the fields above it, 24 px
   * square (WCAG's least target size) as the label's first line is tall; the wider gap keeps its focus
   * ring (5 px outside it) off the label.
   */
  .consent {
    grid-template-columns: auto 1fr;
    align-items: start;
    column-gap: 0.75rem;
  }
  .consent input {
    width: 1.5rem;
    min-height: 1.5rem;
    margin: 0;
  }
  .consent label {
    font-weight: 400;
  }
  .consent .error {
    grid-column: 1 / -1;
  }
  /* A word too long for its line breaks in it: "…to christopher.montgomery@outlook.com." ran out of the card at 320 px. */
  .result {
    padding: var(--_gap);
    border: 2px solid var(--_primary);
    border-radius: var(--_radius);
    background: var(--_surface);
    overflow-wrap: break-word;
  }
  /*
   * The confirmation's check: a disc in the theme's link colour (4.5:1 against white, theme.ts), so
   * the white tick on it and the disc on the card both stand out; above the title, left as the card reads.
   */
  .mark {
    display: block;
    width: 3rem;
    margin-bottom: 0.5rem;
    border-radius: 50%;
    background: var(--_link);
    fill: none;
    stroke: #fff;
    stroke-width: 3;
  }
  .reference {
    font-family: ui-monospace, monospace;
  }
  /*
   * A line of the widget's words with a phone or reference in it takes the widget's direction, not
   * each line's own (plaintext): in Arabic a wrapped phone or reference stood left, away from its words.
   */
  .widget-direction {
    unicode-bidi: isolate;
  }
  /* "Step 3 of 5" above the step's name, not beside it: at 320 px the two ran into one crowded line. */
  #step-heading .muted {
    display: block;
    font-size: 0.875rem;
  }
  .reference span {
    white-space: nowrap;
  }
  /*
   * Forced colours (a Windows contrast theme) drop the theme's fill of a chosen treatment, dentist, day or
   * time, which left a chosen day only underlined. Chosen ones take the system's selection colours, as a
   * chosen item of a list does there, kept from the Canvas backplate the browser puts behind text
   * (forced-color-adjust), which hid HighlightText; their focus ring is then CanvasText, not the theme's.
   */
  @media (forced-colors: active) {
    .button[aria-pressed='true'],
    [aria-selected='true'] .day.day {
      forced-color-adjust: none;
      background: Highlight;
      color: HighlightText;
      border-color: Highlight;
      outline-color: CanvasText;
    }
  }
`;
