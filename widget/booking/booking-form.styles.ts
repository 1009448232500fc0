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
  }
  .slots {
    grid-template-columns: repeat(auto-fill, minmax(5.5rem, 1fr));
  }
  /* Choices, slots and days are secondary buttons (shared.styles.ts); the chosen one is filled. */
  .choice {
    display: grid;
    justify-content: start;
    font-weight: 400;
  }
  .slots .choice {
    justify-content: center;
    white-space: nowrap;
  }
  [aria-pressed='true'],
  [aria-selected='true'] button {
    background: var(--_primary);
    color: var(--_on-primary);
  }
  [aria-pressed='true'] .muted {
    color: inherit;
  }
  .choice:disabled,
  [aria-disabled='true'] {
    opacity: 1;
    color: var(--_muted);
    background: #f1f5f9;
    border-color: var(--_border);
    text-decoration: line-through;
    cursor: not-allowed;
  }
  .month {
    display: flex;
    align-items: center;
    justify-content: space-between;
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
    word-break: break-all;
  }
`;
