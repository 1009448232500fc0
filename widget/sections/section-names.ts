/*
 * Several widgets may show the same sections on one page: from the second on, each section's name
 * ends with the widget's number ("Treatments (2)"), so that landmark names stay unique. The number
 * is a hidden #cb-instance in the content (content-view.ts) that each section's aria-labelledby adds.
 */

/** This widget's place among the page's widgets: 1, 2, … */
export const widgetNumber = (element: Element): number => [...document.querySelectorAll<Element>('clinic-booking')].indexOf(element) + 1;

/** After each render, from the second widget on: every named section's name ends with the number. */
export function nameSections(root: ParentNode, instance: number): void {
  if (instance < 2) return;
  for (const section of root.querySelectorAll('section[aria-labelledby]')) {
    const ids = section.getAttribute('aria-labelledby')!;
    if (!ids.endsWith(' cb-instance')) section.setAttribute('aria-labelledby', `${ids} cb-instance`);
  }
}
