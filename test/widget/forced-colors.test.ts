import { expect, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { ClinicBookingForm } from '../../widget/booking/booking-form.js';
import { walkBookingStates, type BookingState } from './support/booking-states.js';
import { forcedColors } from './support/display-modes.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { deepActiveElement, fixtureReady, formOf } from './support/widget.js';

/** A system colour as the browser computes it now (rgb(…)), from an element that forced colours leave alone. */
function systemColour(name: string): string {
  const probe = document.createElement('span');
  probe.style.cssText = `forced-color-adjust: none; color: ${name}`;
  document.body.append(probe);
  const computed = getComputedStyle(probe).color;
  probe.remove();
  return computed;
}

/** An element as a test's message names it: its tag, then its id, its data-value, date or time, or its text. */
const named = (node: Element) =>
  `${node.localName} ${node.id || node.getAttribute('data-date') || node.getAttribute('data-time') || node.getAttribute('data-value') || node.textContent?.replace(/\s+/g, ' ').trim().slice(0, 30)}`;

/** The form's controls a patient sees: none inside the hidden honeypot, none that is not rendered. */
const shownControls = (form: ClinicBookingForm, selector: string) =>
  [...form.shadowRoot!.querySelectorAll(selector)].filter((node) => !node.closest('[aria-hidden="true"]') && node.getClientRects().length > 0);

/** The sides of the box whose edge is not drawn: no style, thinner than 1 px, or in the page's own Canvas colour. */
function missingEdges(style: CSSStyleDeclaration, canvas: string): string[] {
  return (['top', 'right', 'bottom', 'left'] as const).filter((side) => {
    const edge = (part: string) => style.getPropertyValue(`border-${side}-${part}`);
    return ['none', 'hidden'].includes(edge('style')) || parseFloat(edge('width')) < 1 || edge('color') === canvas || /rgba\(.*, 0\)$/.test(edge('color'));
  });
}

/** Whether the outline is drawn: a style, at least 1 px, in a colour neither transparent nor the page's Canvas. */
const outlineDrawn = (style: CSSStyleDeclaration, canvas: string) =>
  !['none', 'hidden'].includes(style.outlineStyle) && parseFloat(style.outlineWidth) >= 1 && style.outlineColor !== canvas && !/rgba\(.*, 0\)$/.test(style.outlineColor);

/**
 * Windows' contrast themes (forced-colors: active, WCAG 1.4.1 and 1.4.11 there): the browser repaints the widget
 * in the patient's few system colours and drops its fills and shadows, so what tells a button, a chosen day or
 * the focus apart must be something it keeps (an edge, an outline, text, or system colours of the widget's own).
 * Only Chromium can emulate forced colours (scripts/wtr/forced-colors-plugin.mjs, by its DevTools protocol);
 * in Firefox and WebKit these tests skip.
 */
describe('<clinic-booking>', () => {
  describe('in forced colours', () => {
    let bff: FakeBff;
    beforeEach(async function () {
      if (!(await forcedColors(true))) this.skip();
    });
    afterEach(async () => {
      bff?.restore();
      await forcedColors(false);
    });

    async function render(): Promise<ClinicBookingForm> {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>`);
      return formOf(el);
    }

    it('draws an edge around every button and field, and underlines every other link, in each state of the booking flow', async () => {
      const form = await render();
      const canvas = systemColour('Canvas');
      const problems: string[] = [];
      await walkBookingStates(form, bff, async (state) => {
        for (const node of shownControls(form, 'button, input, textarea, select, a.button')) {
          const missing = missingEdges(getComputedStyle(node), canvas);
          if (missing.length) problems.push(`${state}: ${named(node)} has no edge at its ${missing.join(', ')}`);
        }
        for (const link of shownControls(form, 'a:not(.button)')) {
          if (!getComputedStyle(link).textDecorationLine.includes('underline')) problems.push(`${state}: link ${named(link)} is not underlined`);
        }
      });
      expect(problems).to.deep.equal([]);
    });

    it('rings every focus stop with an outline in a system colour, in each state of the booking flow', async () => {
      const form = await render();
      // What forced colours may draw a ring in; not Canvas, the colour around it.
      const rings = ['CanvasText', 'Highlight', 'ButtonText', 'ButtonBorder', 'LinkText'].map(systemColour);
      const problems: string[] = [];
      let stops = 0;
      await walkBookingStates(form, bff, async (state) => {
        form.shadowRoot!.querySelector<HTMLElement>('#step-heading, #result-heading')!.focus();
        const seen = new Set<Element>();
        for (let press = 0; press < 60; press++) {
          await sendKeys({ press: 'Tab' });
          const focused = deepActiveElement();
          if (!focused || !form.shadowRoot!.contains(focused) || seen.has(focused)) break;
          seen.add(focused);
          stops++;
          const style = getComputedStyle(focused);
          if (['none', 'hidden'].includes(style.outlineStyle) || parseFloat(style.outlineWidth) < 1 || !rings.includes(style.outlineColor)) {
            problems.push(`${state}: ${named(focused)} is ringed ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`);
          }
        }
      });
      expect(problems).to.deep.equal([]);
      expect(stops, 'the walk reached no focus stop').to.be.greaterThan(30);
    });

    it('draws each chosen treatment, dentist, day and time in the selection colours, and nothing not chosen', async () => {
      const form = await render();
      const [highlight, highlightText] = [systemColour('Highlight'), systemColour('HighlightText')];
      const problems: string[] = [];
      const chosenIn: Partial<Record<BookingState, string[]>> = {};
      await walkBookingStates(form, bff, async (state) => {
        for (const node of shownControls(form, '[aria-pressed="true"], [aria-selected="true"] button')) {
          (chosenIn[state] ??= []).push(named(node));
          const style = getComputedStyle(node);
          // Left to forced colours, its text would sit on a Canvas backplate: HighlightText on white.
          if (style.backgroundColor !== highlight || style.color !== highlightText || style.forcedColorAdjust !== 'none') {
            problems.push(`${state}: chosen ${named(node)} is ${style.color} on ${style.backgroundColor}, forced-color-adjust ${style.forcedColorAdjust}`);
          }
        }
        for (const node of shownControls(form, '[aria-pressed="false"], [aria-selected="false"] button')) {
          if (getComputedStyle(node).backgroundColor === highlight) problems.push(`${state}: ${named(node)} looks chosen but is not`);
        }
      });
      expect(problems).to.deep.equal([]);
      // The calendar opens with its first bookable day chosen.
      expect(Object.keys(chosenIn)).to.deep.equal(['the calendar', 'a day and its times', 'the day and the time chosen', 'the dentist chosen', 'the treatment chosen']);
    });

    it('draws an edge around the dialog of mode="button", whose backdrop no longer shades the page', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking" mode="button"></clinic-booking>`);
      el.shadowRoot!.querySelector<HTMLButtonElement>('[part="open-button"]')!.click();
      const dialog = el.shadowRoot!.querySelector('dialog')!;
      expect(dialog.open).to.equal(true);
      const [style, canvas] = [getComputedStyle(dialog), systemColour('Canvas')];
      const drawn = missingEdges(style, canvas).length === 0 || outlineDrawn(style, canvas);
      expect(drawn, `the dialog's border is ${style.borderTopStyle}, its outline ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`).to.equal(true);
      dialog.close();
    });
  });
});
