import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PATIENT_LANGUAGES } from '../../contract/bff.js';

/**
 * The WordPress plugin checks every sections, mode and lang value it writes against lists of its own, in
 * PHP (wordpress/clinic-booking/includes/widget-lists.php). They are the widget's lists: this reads both
 * sides' sources, so a section, mode or language added to the widget fails here until the plugin has it.
 */
const php = readFileSync('wordpress/clinic-booking/includes/widget-lists.php', 'utf8');

/** `const NAME = array( 'a', 'b' );` in the plugin's lists. */
function phpList(name: string): string[] {
  const body = new RegExp(`const ${name} = array\\(([^)]*)\\);`).exec(php)?.[1];
  if (body === undefined) throw new Error(`no const ${name} = array( ... ); in widget-lists.php`);
  return [...body.matchAll(/'([^']*)'/g)].map((match) => match[1] ?? '');
}

/** The quoted words of the first match of `pattern` (group 1) in a widget source file. */
function quoted(file: string, pattern: RegExp): string[] {
  const found = pattern.exec(readFileSync(file, 'utf8'))?.[1];
  if (found === undefined) throw new Error(`${pattern} not found in ${file}`);
  return [...found.matchAll(/'([^']*)'/g)].map((match) => match[1] ?? '');
}

describe("the WordPress plugin's lists of the widget's values", () => {
  it("are the widget's sections, in the widget's order", () => {
    const widget = quoted('widget/sections/shown-sections.ts', /const ALL_SECTIONS: Section\[\] = \[([^\]]*)\]/);
    const type = quoted('widget/events.ts', /export type Section = ([^;]*);/);

    expect(phpList('SECTIONS')).toEqual(widget);
    expect([...widget].sort()).toEqual([...type].sort());
  });

  it("are the widget's modes", () => {
    const widget = quoted('widget/clinic-booking.ts', /^\s*mode: ([^=]*) = 'inline';$/m);

    expect(phpList('MODES')).toEqual(widget);
  });

  it('are the languages the widget has words for: English and each language pack', () => {
    // Each pack is one line of PACKS: `  de: () => import('./de.js')...`.
    const packNames = [...readFileSync('widget/i18n/localize.ts', 'utf8').matchAll(/^\s{2}([a-z]{2}): \(\) => import/gm)].map((match) => match[1]);

    expect(packNames.length).toBeGreaterThanOrEqual(5);
    expect([...phpList('LANGUAGES')].sort()).toEqual(['en', ...packNames].sort());
    expect([...phpList('LANGUAGES')].sort()).toEqual([...PATIENT_LANGUAGES].sort());
  });
});
