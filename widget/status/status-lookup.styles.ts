import { css } from 'lit';

export const statusLookupStyles = css`
  form {
    display: grid;
    gap: 0.25rem;
  }
  label {
    font-weight: 600;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  input {
    flex: 1 1 14rem;
    min-height: 2.75rem;
    padding: 0.5rem 0.75rem;
    font: inherit;
    border: 1px solid #64748b;
    border-radius: var(--_radius);
  }
  dl {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.25rem 1rem;
    margin: var(--_gap) 0 0;
  }
  dt {
    font-weight: 600;
  }
  dd {
    margin: 0;
  }
  .failure {
    color: var(--_error);
    font-weight: 600;
  }
`;
