import type { Resource } from '../api.js';
import type { Section } from '../events.js';

const ALL_SECTIONS: Section[] = ['site', 'treatments', 'dentists', 'booking', 'status'];

/** What each section needs from the BFF; all of it in one request (GET /api/content), none when nothing is needed. */
const NEEDS: Record<Section, Resource[]> = {
  site: ['organization', 'site'],
  treatments: ['organization', 'treatments'],
  dentists: ['organization', 'dentists'],
  booking: ['organization', 'site', 'treatments', 'dentists'],
  status: [],
};

/** The sections asked for; none: all of them inline, the booking form alone with the floating button. */
export function parseSections(value: string, mode: string): Section[] {
  const requested = value.split(/[\s,]+/).filter((name): name is Section => (ALL_SECTIONS as string[]).includes(name));
  return requested.length > 0 ? [...new Set(requested)] : mode === 'button' ? ['booking'] : ALL_SECTIONS;
}

export function resourcesFor(sections: Section[]): Resource[] {
  return [...new Set(sections.flatMap((section) => NEEDS[section]))];
}

/** Only the floating button and its dialog: nothing in the page's flow. */
export const isFloating = (mode: string, shown: Section[]): boolean => mode === 'button' && shown.every((section) => section === 'booking');
