// Reads a V8 .cpuprofile (node --cpu-prof) and says where the busy time went: by package (or file of
// this repository, or node: module) and by function, each as its own ("self") time and as the time it
// was anywhere on the stack ("inclusive"), in percent of the samples that were not idle.

import { readFile } from 'node:fs/promises';

/** "express", "@pinojs/redact", "node:_http_outgoing", "dist/bff/content/content.routes.js", "(garbage collector)". */
function placeOf(callFrame, root) {
  const { url, functionName } = callFrame;
  if (!url) return `(${functionName || 'native'})`;
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1];
  return url.replace(`file://${root}/`, '');
}

/** Shares of the busy samples, by place and by function, self and inclusive, largest first. */
export async function summariseProfile(file, root) {
  const profile = JSON.parse(await readFile(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const functionOf = (node) => `${node.callFrame.functionName || '(anonymous)'} ${placeOf(node.callFrame, root)}:${node.callFrame.lineNumber + 1}`;

  const tallies = { selfByPlace: new Map(), inclusiveByPlace: new Map(), selfByFunction: new Map(), inclusiveByFunction: new Map() };
  const add = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
  let busy = 0;
  for (const id of profile.samples) {
    const leaf = nodes.get(id);
    if (leaf.callFrame.functionName === '(idle)') continue;
    busy += 1;
    add(tallies.selfByPlace, placeOf(leaf.callFrame, root));
    add(tallies.selfByFunction, functionOf(leaf));
    // Each place or function once per sample, however often it recurs on the stack.
    const places = new Set();
    const functions = new Set();
    for (let current = id; current !== undefined; current = parents.get(current)) {
      const node = nodes.get(current);
      places.add(placeOf(node.callFrame, root));
      functions.add(functionOf(node));
    }
    places.forEach((place) => add(tallies.inclusiveByPlace, place));
    functions.forEach((fn) => add(tallies.inclusiveByFunction, fn));
  }
  const ranked = (map) => [...map].sort((a, b) => b[1] - a[1]).map(([name, samples]) => ({ name, percent: (100 * samples) / busy }));
  return {
    busySamples: busy,
    samples: profile.samples.length,
    selfByPlace: ranked(tallies.selfByPlace),
    inclusiveByPlace: ranked(tallies.inclusiveByPlace),
    selfByFunction: ranked(tallies.selfByFunction),
    inclusiveByFunction: ranked(tallies.inclusiveByFunction),
  };
}

/** The summary's four lists, `top` lines each. */
export function printProfileSummary(summary, top) {
  const list = (title, rows) => {
    console.log(`\n${title}`);
    for (const { name, percent } of rows.slice(0, top)) console.log(`${percent.toFixed(1).padStart(6)} %  ${name}`);
  };
  console.log(`${summary.busySamples} busy samples of ${summary.samples}; shares are of the busy ones`);
  list('self time by package / file', summary.selfByPlace);
  list('inclusive time by package / file (on the stack; middleware that calls next() includes what follows it)', summary.inclusiveByPlace);
  list('self time by function', summary.selfByFunction);
}
