import { css } from 'lit';

/*
 * Comments stay out of the css`` text: the build keeps it as written, and every byte ships.
 * - .skeleton: its height is the space the page reserved, when it did (loading/skeleton.ts), so the
 *   bones never push the page; whatever does not fit is hidden.
 * - .root > section: sections away from the viewport are neither laid out nor painted until the
 *   visitor scrolls near them; the estimate stands in for their height until then, their real one after.
 *   Not the booking form: its height varies most (a clinic's list of treatments), and laid out at an
 *   estimate its cards were measured overlapping the next section (Lighthouse's target-size audit).
 * - .open-button: inside the safe areas (notches, home indicator), and never wider than the viewport;
 *   at the bottom left in a right-to-left language.
 * - dialog: one size from the viewport on every step (the form scrolls inside it, so it never jumps),
 *   and the form's own card border is dropped there: the dialog is the card. Its outline is transparent,
 *   except in forced colours (a Windows contrast theme), which draw it: there the backdrop's shade is
 *   gone, and the dialog stood over the page with no edge.
 */
export const rootStyles = css`
  .skeleton {
    display: grid;
    align-content: start;
    gap: var(--_gap);
    overflow: hidden;
  }
  .root > section:not(.hero, #booking) {
    content-visibility: auto;
    contain-intrinsic-block-size: auto 30rem;
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
    --_offset: var(--clinic-booking-button-offset, 1rem);
    position: fixed;
    right: calc(var(--_offset) + env(safe-area-inset-right, 0px));
    bottom: calc(var(--_offset) + env(safe-area-inset-bottom, 0px));
    max-width: calc(100vw - 2 * var(--_offset) - env(safe-area-inset-left, 0px) - env(safe-area-inset-right, 0px));
    z-index: 2147483000;
    box-shadow: 0 4px 16px rgb(0 0 0 / 25%);
  }
  [dir='rtl'] .open-button {
    right: auto;
    left: calc(var(--_offset) + env(safe-area-inset-left, 0px));
  }
  dialog {
    width: min(56rem, calc(100vw - 1rem));
    max-height: calc(100dvh - 1rem);
    padding: var(--_gap);
    border: none;
    outline: 1px solid transparent;
    border-radius: var(--_radius);
  }
  dialog clinic-booking-form {
    display: block;
    block-size: min(42rem, calc(100dvh - 7rem));
    overflow-y: auto;
  }
  dialog clinic-booking-form::part(booking-form),
  dialog clinic-booking-form::part(booking-result) {
    padding: 0;
    border: none;
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
  /* The title gives way (smaller, wrapping between words) so Close never leaves a 320 px dialog. */
  .dialog-header h2 {
    min-inline-size: 0;
    font-size: 1.25rem;
    overflow-wrap: break-word;
  }
  .dialog-header .button {
    flex-shrink: 0;
  }
`;
