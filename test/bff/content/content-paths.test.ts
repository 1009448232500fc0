import { describe, expect, it } from 'vitest';
import { startStack } from '../support/bff-harness.js';

const stack = await startStack();

const send = async (method: string, path: string) => {
  const res = await fetch(`${stack.bff.api}${path}`, { method });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as { success: boolean; error_code?: string; message?: string }) : undefined };
};

describe('the content paths, spelled as the router would take them', () => {
  it.each([
    ['/treatments'],
    ['/TREATMENTS'],
    ['/treatments/'],
    ['/Content'],
    ['/content/'],
    ['/treatments/1'],
    ['/Treatments/1/'],
    ['/treatments/%31'],
  ])('GET %s answers 200', async (path) => {
    expect(await send('GET', path)).toMatchObject({ status: 200, body: { success: true } });
  });

  it('answers HEAD as GET, without a body', async () => {
    expect(await send('HEAD', '/website')).toEqual({ status: 200, body: undefined });
  });

  it.each([
    ['/treatments/999999'],
    ['/treatments/1.0'],
    ['/treatments/abc'],
  ])('GET %s, no treatment, answers 404 Treatment not found', async (path) => {
    expect(await send('GET', path)).toEqual({ status: 404, body: { success: false, message: 'Treatment not found', error_code: 'not_found' } });
  });

  it('GET /treatments/%E0, an id the router cannot decode, answers 400 validation_error, as the server does', async () => {
    expect(await send('GET', '/treatments/%E0')).toEqual({ status: 400, body: { success: false, message: 'Invalid request: the path holds a malformed percent-escape', error_code: 'validation_error' } });
  });

  it.each([
    ['GET', '/treatments//1'],
    ['GET', '/treatments/1/more'],
    ['GET', '/treatmentsx'],
    ['POST', '/treatments'],
    ['DELETE', '/content'],
  ])('%s %s, no content route, answers 404 Route not found', async (method, path) => {
    expect(await send(method, path)).toEqual({ status: 404, body: { success: false, message: 'Route not found', error_code: 'not_found' } });
  });
});
