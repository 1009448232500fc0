import { describe, expect, it } from 'vitest';
import { canonicalOrigin, OriginError } from '../../../bff/sites/site-origin.js';

describe('a site origin', () => {
  it('is kept as URL parsing writes the origin: lower case, default port left out', () => {
    expect(canonicalOrigin('https://Clinic.Example')).toBe('https://clinic.example');
    expect(canonicalOrigin('https://clinic.example:443/')).toBe('https://clinic.example');
    expect(canonicalOrigin('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
  });

  it('may be a wildcard over the subdomains of a name of two labels or more', () => {
    expect(canonicalOrigin('https://*.Clinic.example')).toBe('https://*.clinic.example');
    expect(canonicalOrigin('http://*.clinic.example:8443')).toBe('http://*.clinic.example:8443');
  });

  it.each([
    ['null', 'is not a URL'],
    ['clinic.example', 'is not a URL'],
    ['ftp://clinic.example', 'http: or https:'],
    ['https://clinic.example/booking', 'without a path'],
    ['https://clinic.example?x=1', 'without a path'],
    ['https://user@clinic.example', 'without a path'],
    ['https://*.com', 'two labels'],
    ['https://*', 'first label'],
    ['https://*.*.clinic.example', 'one leading *'],
    ['https://a.*.clinic.example', 'first label'],
    ['https://*.clinic.example/path', 'no path'],
    ['https://*.10.0.0.1', 'IP address'],
  ])('refuses %s, saying it %s', (entry, problem) => {
    expect(() => canonicalOrigin(entry)).toThrow(OriginError);
    expect(() => canonicalOrigin(entry)).toThrow(problem);
  });
});
