import { css } from 'lit';

export const rootStyles = css`
  .skeleton {
    display: grid;
    gap: var(--_gap);
  }
  .bone {
    height: 4rem;
    border-radius: var(--_radius);
    background: linear-gradient(90deg, #e2e8f0 25%, #f1f5f9 50%, #e2e8f0 75%) 0 0 / 200% 100%;
    animation: shimmer 1.4s linear infinite;
  }
  .bone.tall {
    height: 12rem;
  }
  .bone.short {
    width: 60%;
  }
  @keyframes shimmer {
    to {
      background-position: -200% 0;
    }
  }
  .load-error {
    display: grid;
    gap: var(--_gap);
    justify-items: start;
    padding: var(--_gap);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
  }
  .open-button {
    position: fixed;
    right: 1rem;
    bottom: 1rem;
    z-index: 2147483000;
    box-shadow: 0 4px 16px rgb(0 0 0 / 25%);
  }
  dialog {
    width: min(42rem, calc(100vw - 1rem));
    max-height: calc(100dvh - 2rem);
    padding: var(--_gap);
    border: none;
    border-radius: var(--_radius);
  }
  dialog::backdrop {
    background: rgb(15 23 42 / 60%);
  }
  .dialog-header {
    display: flex;
    align-items: start;
    justify-content: space-between;
    gap: var(--_gap);
  }
`;
