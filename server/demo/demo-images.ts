/**
 * The demo clinic's pictures, drawn as small SVGs so the server can serve
 * them itself with no binary files in the repository.
 */
interface Picture {
  label: string;
  background: string;
  foreground: string;
  width: number;
  height: number;
}

const PICTURES: Record<string, Picture> = {
  'logo.svg': { label: 'BS', background: '#0f766e', foreground: '#ffffff', width: 160, height: 160 },
  'hero.svg': { label: '', background: '#134e4a', foreground: '#ccfbf1', width: 1600, height: 700 },
  'about.svg': { label: 'Our clinic', background: '#0f766e', foreground: '#f0fdfa', width: 800, height: 600 },
  // Each service's picture names what its heading names (the headings are in demo-clinic.ts).
  'service-family.svg': { label: 'Family dentistry', background: '#14b8a6', foreground: '#042f2e', width: 600, height: 400 },
  'service-nervous.svg': { label: 'Nervous patients', background: '#5eead4', foreground: '#042f2e', width: 600, height: 400 },
  'service-emergency.svg': { label: 'Emergency care', background: '#2dd4bf', foreground: '#042f2e', width: 600, height: 400 },
  'service-planning.svg': { label: 'Planning & technology', background: '#99f6e4', foreground: '#042f2e', width: 600, height: 400 },
  'team-amara.svg': { label: 'AO', background: '#0e7490', foreground: '#ffffff', width: 300, height: 300 },
  'team-james.svg': { label: 'JC', background: '#155e75', foreground: '#ffffff', width: 300, height: 300 },
  'team-sofia.svg': { label: 'SR', background: '#0891b2', foreground: '#ffffff', width: 300, height: 300 },
  'team-liam.svg': { label: 'LH', background: '#164e63', foreground: '#ffffff', width: 300, height: 300 },
  'patient-1.svg': { label: 'EW', background: '#7c3aed', foreground: '#ffffff', width: 160, height: 160 },
  'patient-2.svg': { label: 'DK', background: '#b45309', foreground: '#ffffff', width: 160, height: 160 },
  'patient-3.svg': { label: 'PM', background: '#be123c', foreground: '#ffffff', width: 160, height: 160 },
  'treatment-checkup.svg': { label: 'Check-up', background: '#ccfbf1', foreground: '#134e4a', width: 600, height: 400 },
  'treatment-hygiene.svg': { label: 'Hygiene', background: '#ccfbf1', foreground: '#134e4a', width: 600, height: 400 },
  'treatment-whitening.svg': { label: 'Whitening', background: '#ccfbf1', foreground: '#134e4a', width: 600, height: 400 },
  'treatment-filling.svg': { label: 'Filling', background: '#ccfbf1', foreground: '#134e4a', width: 600, height: 400 },
  'treatment-implant.svg': { label: 'Implant', background: '#ccfbf1', foreground: '#134e4a', width: 600, height: 400 },
  'treatment-aligners.svg': { label: 'Aligners', background: '#ccfbf1', foreground: '#134e4a', width: 600, height: 400 },
  'signature-amara.svg': { label: 'A. Okafor', background: '#ffffff', foreground: '#1e293b', width: 300, height: 100 },
  'signature-james.svg': { label: 'J. Chen', background: '#ffffff', foreground: '#1e293b', width: 300, height: 100 },
  'signature-sofia.svg': { label: 'S. Rossi', background: '#ffffff', foreground: '#1e293b', width: 300, height: 100 },
  // The second demo clinic's (second-demo-clinic.ts, `npm run demo:sites`): its own logo, hero and people.
  'harbour-logo.svg': { label: 'HF', background: '#1d4ed8', foreground: '#ffffff', width: 160, height: 160 },
  'harbour-hero.svg': { label: '', background: '#1e3a8a', foreground: '#dbeafe', width: 1600, height: 700 },
  'harbour-about.svg': { label: 'Our practice', background: '#1d4ed8', foreground: '#eff6ff', width: 800, height: 600 },
  'team-morag.svg': { label: 'MC', background: '#1e40af', foreground: '#ffffff', width: 300, height: 300 },
  'team-tomasz.svg': { label: 'TN', background: '#1d4ed8', foreground: '#ffffff', width: 300, height: 300 },
  'signature-morag.svg': { label: 'M. Campbell', background: '#ffffff', foreground: '#1e293b', width: 300, height: 100 },
  'signature-tomasz.svg': { label: 'T. Nowak', background: '#ffffff', foreground: '#1e293b', width: 300, height: 100 },
};

/** The SVG for a demo picture name, or undefined. */
export function demoImage(name: string): string | undefined {
  const picture = Object.hasOwn(PICTURES, name) ? PICTURES[name] : undefined;
  if (!picture) return undefined;
  const { background, foreground, width, height } = picture;
  const label = picture.label.replace(/&/g, '&amp;');
  const fontSize = Math.round(Math.min(width / Math.max(picture.label.length, 2), height / 2) * 0.9);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">
<rect width="100%" height="100%" fill="${background}"/>
<circle cx="${width * 0.85}" cy="${height * 0.2}" r="${Math.min(width, height) * 0.35}" fill="${foreground}" opacity="0.08"/>
<text x="50%" y="50%" dominant-baseline="central" text-anchor="middle" font-family="system-ui, sans-serif" font-weight="600" font-size="${fontSize}" fill="${foreground}">${label}</text>
</svg>`;
}
