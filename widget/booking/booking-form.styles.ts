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
  .grid {
    display: grid;
    gap: var(--_gap);
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 14rem), 1fr));
  }
  .field {
    display: grid;
    gap: 0.25rem;
    align-content: start;
  }
  .wide {
    grid-column: 1 / -1;
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
    justify-content: stretch;
    justify-items: start;
    text-align: start;
    font-weight: 400;
    padding-inline-end: 2rem;
  }
  .choice::after,
  [aria-selected='true'] .day::after {
    content: '';
    position: absolute;
    inset-block-start: 0.6rem;
    inset-inline-end: 0.7rem;
    inline-size: 0.4rem;
    block-size: 0.75rem;
    border: solid currentColor;
    border-width: 0 0.15rem 0.15rem 0;
    transform: rotate(45deg);
    opacity: 0;
  }
  .button[aria-pressed='true'],
  [aria-selected='true'] .day.day {
    background: var(--_primary);
    border-color: var(--_primary);
    color: var(--_on-primary);
    box-shadow: 0 0 0 2px var(--_surface), 0 0 0 4px var(--_primary);
  }
  .button[aria-pressed='true']::after,
  [aria-selected='true'] .day::after {
    opacity: 1;
  }
  [aria-pressed='true'] .muted {
    color: inherit;
  }
  .slots {
    grid-template-columns: repeat(auto-fill, minmax(6rem, 1fr));
    grid-auto-rows: auto;
  }
  .slots .choice {
    justify-content: center;
    justify-items: center;
    padding-inline: 0.25rem;
    font-weight: 600;
    white-space: nowrap;
  }
  [aria-selected='true'] .day::after {
    inset-block-start: auto;
    inset-block-end: 0.3rem;
    inset-inline: 0;
    margin-inline: auto;
    inline-size: 0.875rem;
    block-size: 0;
    border-width: 0 0 0.15rem;
    transform: none;
  }
  .slots .choice::after {
    inset-block-start: 0.35rem;
    inset-inline-end: 0.4rem;
    block-size: 0.6rem;
    inline-size: 0.3rem;
  }
  .choice:disabled,
  .day[aria-disabled='true'] {
    opacity: 1;
    color: #64748b;
    background: transparent;
    border-color: transparent;
    font-weight: 400;
    cursor: not-allowed;
  }
  .choice:disabled {
    border-color: var(--_border);
    border-style: dashed;
  }
  .day.open {
    font-weight: 700;
    border-color: transparent;
    background: color-mix(in srgb, var(--_primary) 12%, var(--_surface));
  }
  .when {
    display: grid;
    gap: var(--_gap);
    align-items: start;
  }
  @container (min-width: 45rem) {
    .when {
      grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
    }
    .times {
      max-block-size: 26rem;
      overflow-y: auto;
      padding-inline-end: 0.25rem;
    }
  }
  .times h4 {
    font-size: 1rem;
    min-block-size: 2.75rem;
    display: flex;
    align-items: center;
  }
  .period {
    margin: 0.75rem 0 0.25rem;
    font-size: 0.8125rem;
    font-weight: 600;
    color: var(--_muted);
    text-transform: uppercase;
    letter-spacing: 0.04em;
  }
  .summary {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 1.5rem;
    margin: 0;
    padding: 0.5rem 0.75rem;
    border-radius: var(--_radius);
    background: color-mix(in srgb, var(--_primary) 6%, var(--_surface));
    border: 1px solid var(--_border);
  }
  .summary dt {
    font-size: 0.8125rem;
    font-weight: 400;
    color: var(--_muted);
  }
  .summary dd {
    font-weight: 600;
  }
  .badge {
    display: inline-block;
    padding: 0.125rem 0.625rem;
    border-radius: 999px;
    border: 1px solid currentColor;
    font-size: 0.875rem;
    font-weight: 600;
    white-space: nowrap;
    color: #334155;
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
  .result-head {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 1rem;
    margin-block-end: 0.5rem;
  }
  .result-head h3 {
    margin: 0;
  }
  .month {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem;
  }
  .month h4 {
    margin: 0;
    text-align: center;
  }
  table {
    width: 100%;
    border-collapse: collapse;
    table-layout: fixed;
  }
  th {
    font-size: 0.875rem;
    color: var(--_muted);
  }
  td {
    padding: 2px;
  }
  td .button {
    position: relative;
    width: 100%;
    padding: 0;
  }
  dl {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.25rem 1rem;
  }
  dt {
    font-weight: 600;
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  @container (max-width: 30rem) {
    dl:not(.summary) {
      grid-template-columns: 1fr;
    }
    dl:not(.summary) dd {
      margin-block-end: 0.5rem;
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
    border-left: 4px solid var(--_error);
    background: #fef2f2;
    color: #7f1d1d;
  }
  .consent {
    grid-template-columns: auto 1fr;
    align-items: start;
  }
  .consent input {
    width: 1.25rem;
    min-height: 1.25rem;
    margin-top: 0.2rem;
  }
  .consent label {
    font-weight: 400;
  }
  .consent .error {
    grid-column: 1 / -1;
  }
  .honeypot {
    position: absolute;
    left: -10000px;
    width: 1px;
    height: 1px;
    overflow: hidden;
  }
  .result {
    padding: var(--_gap);
    border: 2px solid var(--_primary);
    border-radius: var(--_radius);
    background: var(--_surface);
  }
  .reference {
    font-family: ui-monospace, monospace;
  }
  .reference span {
    white-space: nowrap;
  }
`;
