import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureWidgetBuilt, WIDGET_BUNDLE, WIDGET_DIR } from './support/stack.js';

/** The budget for everything loaded on first render. */
const BUDGET_GZIP_BYTES = 25 * 1024;

interface Manifest {
  modules: { declarations?: { tagName?: string; attributes?: { name: string }[]; events?: { name: string }[]; cssProperties?: { name: string }[]; cssParts?: { name: string }[] }[] }[];
}

describe('the built widget', () => {
  beforeAll(async () => {
    await ensureWidgetBuilt();
  });

  it('is one module within 25 KB gzip, with nothing else to load', () => {
    const bundle = readFileSync(WIDGET_BUNDLE);
    expect(gzipSync(bundle, { level: 9 }).length).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
    // No code splitting: no dynamic import() and no chunks folder.
    expect(bundle.toString()).not.toMatch(/\bimport\s*\(/);
    expect(existsSync(join(WIDGET_DIR, 'chunks'))).toBe(false);
  });

  it('ships a custom-elements.json that documents the element, its attributes, events, properties and parts', () => {
    const manifest = JSON.parse(readFileSync(join(WIDGET_DIR, 'custom-elements.json'), 'utf8')) as Manifest;
    const element = manifest.modules.flatMap((module) => module.declarations ?? []).find((d) => d.tagName === 'clinic-booking');
    expect(element).toBeDefined();
    expect(element!.attributes!.map((a) => a.name)).toEqual(
      expect.arrayContaining(['api-base', 'sections', 'mode', 'treatment', 'doctor', 'patient-name', 'patient-phone', 'success-url', 'privacy-url']),
    );
    expect(element!.events!.map((e) => e.name)).toEqual(
      expect.arrayContaining(['clinic-booking:ready', 'clinic-booking:booked', 'clinic-booking:error']),
    );
    expect(element!.cssProperties!.map((p) => p.name)).toEqual(
      expect.arrayContaining(['--clinic-booking-primary', '--clinic-booking-secondary', '--clinic-booking-dark', '--clinic-booking-font', '--clinic-booking-radius']),
    );
    expect(element!.cssParts!.map((p) => p.name)).toEqual(expect.arrayContaining(['hero', 'booking-form', 'submit', 'status-result']));
  });
});
