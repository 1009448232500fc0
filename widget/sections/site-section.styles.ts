import { css } from 'lit';

/** Styles of the website content (sections/site-section.ts); builds on sharedStyles. */
export const siteStyles = css`
  .site-header {
    display: flex;
    align-items: center;
    gap: 0.75rem;
    margin-bottom: var(--_gap);
  }
  .site-header img {
    height: 3rem;
    width: auto;
    max-width: 10rem;
    object-fit: contain;
  }
  .brand {
    margin: 0;
    font-size: 1.25rem;
    font-weight: 700;
    color: var(--_dark);
  }
  .hero {
    display: flex;
    flex-direction: column;
    align-items: flex-start;
    gap: 0.75rem;
    margin-top: 0;
    padding: clamp(1.5rem, 6cqi, 4rem) clamp(1rem, 5cqi, 3rem);
    border-radius: var(--_radius);
    color: #fff;
    /* The overlay stays even without an image: white text keeps >= 4.5:1 on any picture. */
    background-color: var(--_dark);
    background-image: linear-gradient(rgba(0, 0, 0, 0.6), rgba(0, 0, 0, 0.6)), var(--_hero-image, none);
    background-size: cover;
    background-position: center;
  }
  .hero h2,
  .rich :is(h3, h4) {
    color: inherit;
  }
  .hero h2 {
    margin: 0;
    font-size: clamp(1.5rem, 5cqi, 2.5rem);
  }
  .hero .rich {
    max-width: 40rem;
  }
  .hero a:not(.button) {
    color: inherit;
  }
  .badge {
    margin: 0;
    padding: 0.125rem 0.75rem;
    border: 1px solid currentColor;
    border-radius: 999px;
    font-size: 0.875rem;
    font-weight: 600;
  }
  .rich :is(ul, ol),
  .features {
    margin: 0 0 0.75em;
    padding-inline-start: 1.25rem;
  }
  .rich blockquote {
    margin: 0 0 0.75em;
    padding-inline-start: 1rem;
    border-inline-start: 3px solid currentColor;
  }
  .stats {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 9rem), 1fr));
    gap: var(--_gap);
    margin: var(--_gap) 0 0;
    padding: 0;
    list-style: none;
  }
  .stats li {
    padding: var(--_gap);
    text-align: center;
    font-size: 1.125rem;
    font-weight: 700;
    color: var(--_dark);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .stats span {
    display: block;
    font-size: 0.875rem;
    font-weight: 400;
    color: var(--_muted);
  }
  .about {
    display: grid;
    gap: var(--_gap);
    align-items: center;
  }
  @container (min-width: 40rem) {
    .about {
      grid-template-columns: 1fr 1fr;
    }
  }
  .eyebrow {
    margin: 0 0 0.25rem;
    font-size: 0.8125rem;
    font-weight: 700;
    letter-spacing: 0.08em;
    text-transform: uppercase;
    color: var(--_link);
  }
  .about img,
  .card > img {
    display: block;
    width: 100%;
    aspect-ratio: 16 / 10;
    object-fit: cover;
    border-radius: var(--_radius);
  }
  .member > img {
    aspect-ratio: 1;
  }
  .card :is(h3, p) {
    margin: 0;
  }
  figure,
  blockquote {
    margin: 0;
  }
  .testimonials blockquote p {
    margin-bottom: 0.75rem;
    font-style: italic;
  }
  figcaption {
    display: flex;
    align-items: center;
    gap: 0.75rem;
  }
  figcaption img {
    width: 3rem;
    height: 3rem;
    border-radius: 50%;
    object-fit: cover;
  }
  details {
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  details + details {
    margin-top: 0.5rem;
  }
  summary {
    padding: 0.75rem var(--_gap);
    font-weight: 600;
    cursor: pointer;
  }
  details > p,
  .site-footer p {
    white-space: pre-line;
  }
  details > p {
    margin: 0;
    padding: 0 var(--_gap) var(--_gap);
  }
  table {
    width: 100%;
    max-width: 28rem;
    border-collapse: collapse;
  }
  th,
  td {
    padding: 0.5rem 0.75rem;
    border-bottom: 1px solid var(--_border);
    text-align: start;
    font-weight: 400;
  }
  td {
    text-align: end;
    font-variant-numeric: tabular-nums;
  }
  /* Today: bold, a side bar and a "Today" label, not colour alone. */
  .today :is(th, td) {
    font-weight: 700;
    background: color-mix(in srgb, var(--_primary) 10%, transparent);
  }
  .today th {
    box-shadow: inset 4px 0 var(--_primary);
  }
  .today-label {
    margin-inline-start: 0.5rem;
    padding: 0 0.5rem;
    border-radius: 999px;
    font-size: 0.75rem;
    color: #fff;
    background: var(--_dark);
  }
  address {
    font-style: normal;
  }
  dl {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 12rem), 1fr));
    gap: var(--_gap);
    margin: 0 0 var(--_gap);
  }
  dt {
    font-weight: 600;
    color: var(--_dark);
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .social ul {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .social a {
    display: inline-flex;
    align-items: center;
    min-height: 2.75rem;
    padding: 0.25rem 1rem;
    border: 1px solid var(--_border);
    border-radius: 999px;
    text-decoration: none;
  }
  .site-footer {
    margin-top: calc(var(--_gap) * 2);
    padding-top: var(--_gap);
    border-top: 1px solid var(--_border);
    font-size: 0.875rem;
    color: var(--_muted);
  }
`;
