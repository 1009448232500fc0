import { beforeEach, describe, expect, it } from 'vitest';
import { ParsedSettings } from '../../../server/website/parsed-settings.js';
import { clinicFixture } from '../support/clinic-fixture.js';

// Each booking reads its clinic's opening hours from the settings document;
// ParsedSettings keeps one parsed copy per distinct JSON text, for the app that made it.

const website = clinicFixture('Parsed Dental').website;
const CARE_ID = 7;

describe('ParsedSettings', () => {
  let parsed: ParsedSettings;
  beforeEach(() => {
    parsed = new ParsedSettings();
  });
  const parseSettings = (careId: number, json: string) => parsed.parse(careId, json);

  it('parses the document as JSON.parse does', () => {
    expect(parseSettings(CARE_ID, JSON.stringify(website))).toEqual(website);
  });

  it('answers the same parsed document to the same text, read from the database as a new string each time', () => {
    const first = parseSettings(CARE_ID, JSON.stringify(website));
    const again = parseSettings(CARE_ID, JSON.stringify(structuredClone(website)));
    expect(again).toBe(first);
  });

  it('keeps each clinic’s document apart', () => {
    const other = { ...website, hero_title: 'Another clinic' };
    expect(parseSettings(8, JSON.stringify(other)).hero_title).toBe('Another clinic');
    expect(parseSettings(CARE_ID, JSON.stringify(website)).hero_title).toBe(website.hero_title);
    expect(parseSettings(8, JSON.stringify(other)).hero_title).toBe('Another clinic');
  });

  it('parses an edited document afresh: new hours are read at once', () => {
    const before = parseSettings(CARE_ID, JSON.stringify(website));
    const edited = { ...website, opening_hours: { ...website.opening_hours, Monday: { open: '07:00', close: '12:00', is_closed: false } } };
    const after = parseSettings(CARE_ID, JSON.stringify(edited));
    expect(after).not.toBe(before);
    expect(after.opening_hours.Monday).toEqual({ open: '07:00', close: '12:00', is_closed: false });
    expect(before.opening_hours.Monday).toEqual(website.opening_hours.Monday);
  });

  it('hands out a document no reader can change for the next, to any depth', () => {
    const settings = parseSettings(CARE_ID, JSON.stringify(website));
    expect(() => {
      (settings as { hero_title: string }).hero_title = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      (settings.opening_hours.Monday as { close: string }).close = '23:00';
    }).toThrow(TypeError);
    expect(parseSettings(CARE_ID, JSON.stringify(website))).toEqual(website);
  });

  it('keeps nothing for another app: each ParsedSettings parses on its own', () => {
    const mine = parseSettings(CARE_ID, JSON.stringify(website));

    const theirs = new ParsedSettings().parse(CARE_ID, JSON.stringify(website));

    expect(theirs).not.toBe(mine);
    expect(theirs).toEqual(mine);
  });
});
