import { afterEach, describe, expect, it, vi } from 'vitest';
import { bookmarkletCode, PASTE_MESSAGE, targetOrigin } from './bookmarklet';

const ORIGIN = 'https://notes.clinic.pt';

/** Runs the bookmarklet's code on the current (jsdom) page, as the browser would. */
function run() {
  const code = decodeURIComponent(bookmarkletCode(ORIGIN, 'No text box on this page.').slice('javascript:'.length));
  new Function(code)();
}

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('bookmarklet', () => {
  it('says so on a page without a text box, and opens nothing', () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    run();
    expect(alert).toHaveBeenCalledWith('No text box on this page.');
    expect(open).not.toHaveBeenCalled();
  });

  it('opens the paste window and inserts only what comes from the product, once', () => {
    document.body.innerHTML = '<textarea id="ehr">Before. </textarea>';
    const box = document.getElementById('ehr') as HTMLTextAreaElement;
    box.focus();
    box.setSelectionRange(8, 8);
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    run();
    expect(open.mock.calls[0]![0]).toBe(`${ORIGIN}/paste?to=${encodeURIComponent(window.location.origin)}`);

    window.dispatchEvent(new MessageEvent('message', { origin: 'https://evil.example', data: { type: PASTE_MESSAGE, text: 'injected' } }));
    window.dispatchEvent(new MessageEvent('message', { origin: ORIGIN, data: { type: 'other', text: 'wrong shape' } }));
    window.dispatchEvent(new MessageEvent('message', { origin: ORIGIN, data: { type: PASTE_MESSAGE, text: 'S: cough.' } }));
    window.dispatchEvent(new MessageEvent('message', { origin: ORIGIN, data: { type: PASTE_MESSAGE, text: ' again' } }));
    expect(box.value).toBe('Before. S: cough.');
  });

  it('answers only a plain http(s) origin', () => {
    expect(targetOrigin('https://ehr.hospital.pt')).toBe('https://ehr.hospital.pt');
    expect(targetOrigin('https://ehr.hospital.pt/path')).toBeUndefined();
    expect(targetOrigin('javascript:alert(1)')).toBeUndefined();
    expect(targetOrigin(undefined)).toBeUndefined();
  });
});
