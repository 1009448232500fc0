import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STEPS } from '../../widget/booking/booking-steps.js';

/**
 * README's pictures of the widget say in their alt texts which step they show ("step 3 of 5"). When the
 * booking form gains or loses a step, those words (and the pictures) are out of date: each must name a step
 * the form has, out of as many as it has. And each picture must be one `npm run screenshots` draws again.
 */
const readme = readFileSync('README.md', 'utf8');

/** The alt text of each picture on a page: `<img … alt="…">` and `![…](…)`. */
function altTexts(page: string): string[] {
  const tags = [...page.matchAll(/<img\b[^>]*\balt="([^"]*)"/g)].map(([, alt]) => alt!);
  const markdown = [...page.matchAll(/!\[([^\]]*)\]\(/g)].map(([, alt]) => alt!);
  return [...tags, ...markdown];
}

/** Each "step X of Y" in an alt text that does not fit a form of `steps` steps. */
function staleSteps(page: string, steps: number): string[] {
  return altTexts(page).flatMap((alt) =>
    [...alt.matchAll(/\bstep (\d+) of (\d+)\b/gi)]
      .filter(([, x, y]) => Number(y) !== steps || Number(x) < 1 || Number(x) > steps)
      .map(([words]) => `"${words}" (the form has ${steps} steps): ${alt}`),
  );
}

/** The docs/img/ files a page shows. */
const pictures = (page: string) => [...page.matchAll(/(?:src="|\]\()(docs\/img\/[^")]+)/g)].map(([, path]) => path!);

describe("README's pictures of the widget", () => {
  it('name in their alt texts only steps the booking form has, out of as many as it has', () => {
    expect(altTexts(readme).some((alt) => /\bstep \d+ of \d+\b/i.test(alt))).toBe(true);
    expect(staleSteps(readme, STEPS.length)).toEqual([]);
  });

  it('would be caught naming a step count or a step the form no longer has', () => {
    const page = [
      '<img src="a.png" alt="The widget: step 3 of 6, the times">',
      '<img src="b.png" alt="Step 6 of 5, nothing">',
      '![The widget at step 2 of 5](c.png)',
    ].join('\n');

    expect(staleSteps(page, 5)).toEqual([
      '"step 3 of 6" (the form has 5 steps): The widget: step 3 of 6, the times',
      '"Step 6 of 5" (the form has 5 steps): Step 6 of 5, nothing',
    ]);
  });

  it('are each drawn again by npm run screenshots', () => {
    const script = readFileSync('scripts/screenshots.ts', 'utf8');
    const shown = pictures(readme);

    expect(shown.length).toBeGreaterThan(0);
    for (const path of shown) {
      expect(existsSync(path), path).toBe(true);
      expect(script, `scripts/screenshots.ts does not write ${path}`).toContain(`'${path.replace('docs/img/', '')}'`);
    }
  });
});
