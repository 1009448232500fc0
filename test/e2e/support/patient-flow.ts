import { eventually } from '../../support/eventually.js';
import { IN_PAGE, type EngineDriver, type Target } from './engine-driver.js';

/**
 * The booking form's elements the flow acts on, one line each: the only place here that knows the widget's
 * markup, so a change to it (a step, a period of times that opens and closes) is a change to one line.
 * Treatment and dentist by their button's text; days and times by their data attributes.
 */
export const ON_PAGE = {
  /** A treatment or dentist button. */
  choice: (name: string): Target => ({ css: 'button.choice[data-value]', text: name }),
  /** Any day of the calendar: its one tab stop is among them. */
  calendar: { css: '[role="grid"] button.day' } as Target,
  /** A day that can be booked (the calendar marks them `open`), today excepted: its last times may pass while the test runs. */
  bookableDay: (today: string): Target => ({ css: `[role="grid"] button.day.open:not([data-date="${today}"])` }),
  nextMonth: { css: 'button[aria-label="Next month"]' } as Target,
  /**
   * A time that can be chosen, once the day's availability has come (while it loads, the times show inert,
   * aria-busy); taken ones are disabled, those of a closed period not rendered.
   */
  freeTime: { css: '.times[aria-busy="false"] button[data-time]:not([disabled])' } as Target,
  /** A period of the times that is closed and has free times, where the times are grouped into periods that open. */
  closedPeriod: { css: '.times[aria-busy="false"] button[aria-expanded="false"]:not([disabled])' } as Target,
  field: (id: 'patient_name' | 'patient_phone'): Target => ({ css: `#${id}` }),
  /** The privacy consent, shown when the page gives a privacy-url. */
  consent: { css: 'input#consent[type="checkbox"]' } as Target,
  /** The details step's Continue. */
  next: { css: 'button[type="submit"]:not([part="submit"])' } as Target,
  book: { css: 'button[part="submit"]' } as Target,
  reference: { css: '[data-reference]' } as Target,
};

/** How long a step waits for what it acts on: a bound for a failing run only (a passing one takes well under it). */
const STEP_MS = 20_000;
/** The most Tab presses from one stop to the next; the page and the widget have far fewer. */
const MAX_TABS = 60;
/** The most arrow presses along the calendar to a bookable day. */
const MAX_ARROWS = 40;

const args = (target: Target, ...more: string[]) => [target.css, target.text ?? '', ...more];

/** What the page shows, for a failure message: where the flow stopped, and what has focus. */
async function whereWeAre(driver: EngineDriver): Promise<string> {
  const state = await driver.run<Record<string, string | null>>(IN_PAGE.state).catch((error: unknown) => String(error));
  const focus = await driver.run<string>(IN_PAGE.focusedInWords).catch(() => '?');
  return `${driver.engine}: the form shows ${JSON.stringify(state)}, focus is on ${focus}`;
}

const count = (driver: EngineDriver, target: Target) => driver.run<number>(IN_PAGE.count, ...args(target));

/** Waits until `target` finds an element. */
async function waitFor(driver: EngineDriver, target: Target): Promise<void> {
  await eventually(
    async () => {
      if ((await count(driver, target)) === 0) throw new Error(`${JSON.stringify(target)} never appeared; ${await whereWeAre(driver)}`);
    },
    { timeoutMs: STEP_MS, intervalMs: 50 },
  );
}

/** Attribute `name` of the element with focus when `target` finds it; else null. */
const focusedAttribute = (driver: EngineDriver, target: Target, name = '') => driver.run<string | null>(IN_PAGE.focused, ...args(target, name));

/** The patient's hands: how each step is done, with the pointer or with the keyboard alone. */
export interface Hands {
  /** Presses a button. */
  choose(target: Target): Promise<void>;
  /**
   * Chooses the element `target` finds within a group that is one tab stop (`group`, a roving tabindex),
   * showing `more` of the group until there is one, and answers its attribute `key`.
   */
  chooseIn(group: Target, target: Target, key: string, more?: Target): Promise<string>;
  /** Types `text` into a field. */
  fill(target: Target, text: string): Promise<void>;
  /** Ticks a checkbox. */
  tick(target: Target): Promise<void>;
}

/** Clicks and typing, as a person with a mouse: each element clicked with the engine's pointer input. */
export function pointer(driver: EngineDriver): Hands {
  const click = async (target: Target) => {
    await waitFor(driver, target);
    await driver.click(target);
  };
  return {
    choose: click,
    async chooseIn(group, target, key, more) {
      await waitFor(driver, group);
      for (let i = 0; i < 3 && more && (await count(driver, target)) === 0; i++) await click(more);
      await waitFor(driver, target);
      const value = await driver.run<string | null>(IN_PAGE.attribute, ...args(target, key));
      await driver.click(target);
      return value ?? '';
    },
    async fill(target, text) {
      await click(target);
      await driver.type(text);
    },
    tick: click,
  };
}

/** Tab, Enter, Space and arrows only, as a person at a keyboard: never a click. */
export function keyboard(driver: EngineDriver): Hands {
  const tabTo = async (target: Target) => {
    await waitFor(driver, target);
    for (let i = 0; i < MAX_TABS; i++) {
      if ((await focusedAttribute(driver, target)) !== null) return;
      await driver.press('Tab');
    }
    throw new Error(`Tab never reached ${JSON.stringify(target)}; ${await whereWeAre(driver)}`);
  };
  return {
    async choose(target) {
      await tabTo(target);
      await driver.press('Enter');
    },
    async chooseIn(group, target, key) {
      // Arrows move along the group (and on into the next month): `more` is for the pointer.
      await tabTo(group);
      for (let i = 0; i < MAX_ARROWS && (await focusedAttribute(driver, target)) === null; i++) await driver.press('ArrowRight');
      const value = await focusedAttribute(driver, target, key);
      if (value === null) throw new Error(`the arrows never reached ${JSON.stringify(target)}; ${await whereWeAre(driver)}`);
      await driver.press('Enter');
      return value;
    },
    async fill(target, text) {
      await tabTo(target);
      await driver.type(text);
    },
    async tick(target) {
      await tabTo(target);
      await driver.press('Space');
    },
  };
}

export interface Patient {
  treatment: string;
  dentist: string;
  name: string;
  phone: string;
  /** Today in the clinic's zone, never the day booked. */
  today: string;
}

export interface Booked {
  date: string;
  time: string;
  /** The reference the confirmation shows. */
  reference: string;
}

/**
 * The patient's booking, the same list of steps in every engine and with either hands: treatment, dentist,
 * the first bookable day after today, its first free time (opening a period of times first, where they
 * are grouped so), name and phone, the privacy consent where the page asks for it, review, book; then the
 * reference on the confirmation. Answers the day, time and reference chosen and shown.
 */
export async function bookAsPatient(driver: EngineDriver, hands: Hands, patient: Patient): Promise<Booked> {
  await hands.choose(ON_PAGE.choice(patient.treatment));
  await hands.choose(ON_PAGE.choice(patient.dentist));
  const date = await hands.chooseIn(ON_PAGE.calendar, ON_PAGE.bookableDay(patient.today), 'data-date', ON_PAGE.nextMonth);
  await waitFor(driver, { css: `${ON_PAGE.freeTime.css}, ${ON_PAGE.closedPeriod.css}` });
  while ((await count(driver, ON_PAGE.freeTime)) === 0 && (await count(driver, ON_PAGE.closedPeriod)) > 0) await hands.choose(ON_PAGE.closedPeriod);
  const time = await hands.chooseIn(ON_PAGE.freeTime, ON_PAGE.freeTime, 'data-time');
  await hands.fill(ON_PAGE.field('patient_name'), patient.name);
  await hands.fill(ON_PAGE.field('patient_phone'), patient.phone);
  if ((await count(driver, ON_PAGE.consent)) > 0) await hands.tick(ON_PAGE.consent);
  await hands.choose(ON_PAGE.next);
  await hands.choose(ON_PAGE.book);
  await waitFor(driver, ON_PAGE.reference);
  const reference = (await driver.run<string | null>(IN_PAGE.text, ...args(ON_PAGE.reference))) ?? '';
  return { date, time, reference };
}
