import { css } from 'lit';

/** The lookup borrows the booking form's look (bookingFormStyles); only its input shares a row with the button. */
export const statusLookupStyles = css`
  input {
    flex: 1 1 14rem;
    /* A reference is Latin: right to left, a phone's field showed its end and hid its start. */
    direction: ltr;
  }
  .result {
    margin-block-start: var(--_gap);
  }
`;
