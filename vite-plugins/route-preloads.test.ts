import { afterEach, describe, expect, it } from 'vitest';
import type { Rollup } from 'vite';
import { preloadScript, routePattern } from './route-preloads';

const chunk = (fileName: string, facadeModuleId: string | null, imports: string[] = []) =>
  ({ type: 'chunk', fileName, facadeModuleId, imports }) as unknown as Rollup.OutputChunk;

// A build as the router and the catalogs leave it: the entry, the signed-in layout, two screens, sign-in, catalogs.
const entry = chunk('assets/app.js', '/p/src/main.tsx', ['assets/runtime.js']);
const bundle = Object.fromEntries(
  [
    entry,
    chunk('assets/runtime.js', null),
    chunk('assets/layout.js', '/p/src/routes/_app.tsx?tsr-split=component', ['assets/widgets.js', 'assets/runtime.js']),
    chunk('assets/widgets.js', null),
    chunk('assets/index.js', '/p/src/routes/_app/index.tsx?tsr-split=component', ['assets/HomeScreen.js']),
    chunk('assets/HomeScreen.js', '/p/src/features/home/HomeScreen.tsx', ['assets/widgets.js']),
    chunk('assets/consultation.js', '/p/src/routes/_app/consultation.$id.tsx?tsr-split=component', ['assets/ConsultationScreen.js']),
    chunk('assets/ConsultationScreen.js', null),
    chunk('assets/login.js', '/p/src/routes/login.tsx?tsr-split=component', ['assets/AuthLayout.js']),
    chunk('assets/AuthLayout.js', null),
    chunk('assets/messages-pt.js', '/p/src/locales/pt/messages.po'),
    chunk('assets/messages-de.js', '/p/src/locales/de/messages.po'),
  ].map((c) => [c.fileName, c]),
) as Rollup.OutputBundle;

function preloadsFor(path: string, storage: { locale?: string; token?: string } = {}): string[] {
  window.history.replaceState(null, '', path);
  localStorage.clear();
  sessionStorage.clear();
  if (storage.locale) localStorage.setItem('locale', storage.locale);
  if (storage.token) sessionStorage.setItem('token', storage.token);
  document.head.querySelectorAll('link[data-route-preload]').forEach((link) => link.remove());
  // The script as index.html carries it, run as the browser runs an inline script.
  // biome-ignore lint/security/noGlobalEval: the test runs the build's own inline script text, exactly as the page would.
  window.eval(preloadScript(bundle, entry));
  return [...document.head.querySelectorAll<HTMLLinkElement>('link[rel=modulepreload][data-route-preload]')].map((link) => new URL(link.href).pathname);
}

afterEach(() => window.history.replaceState(null, '', '/'));

describe('route preloads in index.html', () => {
  it('names the paths a route file serves', () => {
    expect(routePattern('_app/index')).toBe('^/$');
    expect(routePattern('_app/consultation.$id')).toBe('^/consultation/[^/]+$');
    expect(routePattern('_app/settings.{-$section}')).toBe('^/settings(?:/[^/]+)?$');
    expect(routePattern('change-password')).toBe('^/change\\-password$');
    expect(new RegExp(routePattern('_app/dictaphone.consultation.$id')).test('/dictaphone/consultation/42')).toBe(true);
  });

  it('fetches a signed-in screen, its frame and the saved language at once', () => {
    expect(preloadsFor('/consultation/8f0c', { token: 't', locale: 'de' }).sort()).toEqual(
      ['/assets/messages-de.js', '/assets/consultation.js', '/assets/ConsultationScreen.js', '/assets/layout.js', '/assets/widgets.js'].sort(),
    );
    expect(preloadsFor('/', { token: 't' })).toEqual(expect.arrayContaining(['/assets/index.js', '/assets/HomeScreen.js', '/assets/layout.js']));
  });

  it('fetches nothing without a session (the app goes to sign-in) nor on the sign-in screens, nor what the entry loads', () => {
    expect(preloadsFor('/consultation/8f0c')).toEqual([]);
    expect(preloadsFor('/login', { token: 't' })).toEqual([]);
    expect(preloadsFor('/', { token: 't' })).not.toContain('/assets/runtime.js');
  });

  it('picks the language as the app does: the saved one, else the browser’s first supported, else Portuguese', () => {
    const catalog = (storage: { locale?: string }) => preloadsFor('/', { token: 't', ...storage }).filter((path) => path.includes('messages-'));
    Object.defineProperty(navigator, 'languages', { value: ['fr-FR', 'de-AT'], configurable: true });
    expect(catalog({})).toEqual(['/assets/messages-de.js']);
    expect(catalog({ locale: 'pt' })).toEqual(['/assets/messages-pt.js']);
    Object.defineProperty(navigator, 'languages', { value: ['fr-FR'], configurable: true });
    expect(catalog({})).toEqual(['/assets/messages-pt.js']);
    // Names every object has are no languages (the app's own check refuses them too).
    for (const odd of ['constructor', 'toString', '__proto__']) expect(catalog({ locale: odd })).toEqual(['/assets/messages-pt.js']);
    expect(preloadsFor('/', { token: 't', locale: 'constructor' })).not.toContain('/undefined');
  });

  it('fetches nothing for an address no route serves', () => {
    expect(preloadsFor('/no/such/page', { token: 't' })).toEqual([]);
  });
});
