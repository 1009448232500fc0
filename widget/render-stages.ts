import type { Section } from './events.js';

/**
 * The content renders in stages, each in its own task after the one before, so that no task is long
 * (layout-stability.test.ts holds it to that): the site in four parts, top first, then each other
 * section. The first stage renders with the content; a stage whose section is not shown is skipped.
 */
export const STAGES = ['site-top', 'site-middle', 'site-bottom', 'site-end', 'treatments', 'dentists', 'booking', 'status'] as const;
export type Stage = (typeof STAGES)[number];

/** The last stage: once the render has come this far, everything shows and stays shown. */
export const LAST_STAGE: Stage = 'status';

/** Whether a render that has come as far as `upTo` (undefined: not started) shows `stage`. */
export const reaches = (upTo: Stage | undefined, stage: Stage): boolean => !!upTo && STAGES.indexOf(stage) <= STAGES.indexOf(upTo);

/** The next stage after `upTo` whose section is shown, or LAST_STAGE when none is left. */
export function stageAfter(upTo: Stage | undefined, shown: readonly Section[]): Stage {
  const rest = STAGES.slice(upTo ? STAGES.indexOf(upTo) + 1 : 0);
  // 'site-top' and the like belong to the section before the dash.
  return rest.find((stage) => shown.includes(stage.split('-')[0] as Section)) ?? LAST_STAGE;
}
