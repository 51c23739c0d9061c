import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, lazyRouteComponent, Outlet, RouterProvider } from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isChunkLoadFailure } from './chunk-load-failure';
import { RETRY_EVERY_MS, RouteError } from './RouteError';

const FETCH_FAILED = 'Failed to fetch dynamically imported module: http://localhost/assets/Screen-abc.js';

const Never = () => <h1>Never</h1>;
const Research = () => <h1>Research</h1>;
const Templates = () => <h1>Templates</h1>;

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function setOnline(online: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

/** A signed-in frame (the pathless '_app' layout, as in src/routes) with a screen that throws and one loaded lazily. */
function mount(path: string, importer: () => Promise<{ Screen: () => React.JSX.Element }>) {
  const root = createRootRoute({ component: Outlet });
  const frame = createRoute({
    getParentRoute: () => root,
    id: '_app',
    component: () => (
      <div>
        <nav aria-label="Main">frame</nav>
        <main>
          <Outlet />
        </main>
      </div>
    ),
  });
  const broken = createRoute({
    getParentRoute: () => frame,
    path: '/broken',
    component: () => {
      throw new TypeError("Cannot read properties of undefined (reading 'name')");
    },
  });
  const lazy = createRoute({ getParentRoute: () => frame, path: '/lazy', component: lazyRouteComponent(importer, 'Screen') });
  const home = createRoute({ getParentRoute: () => frame, path: '/', component: () => <h1>Home</h1> });
  const router = createRouter({
    routeTree: root.addChildren([frame.addChildren([broken, lazy, home])]),
    history: createMemoryHistory({ initialEntries: [path] }),
    defaultErrorComponent: RouteError,
  });
  render(
    <I18nProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nProvider>,
  );
  return router;
}

describe('route errors', () => {
  it('tell a failed download of code from any other error', () => {
    expect(isChunkLoadFailure(new TypeError(FETCH_FAILED))).toBe(true);
    expect(isChunkLoadFailure(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadFailure(new TypeError("Cannot read properties of undefined (reading 'name')"))).toBe(false);
    expect(isChunkLoadFailure('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('a screen that throws shows a calm message inside the frame, with a retry and a way home', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mount('/broken', async () => ({ Screen: Never }));
    const heading = await screen.findByRole('heading', { name: 'This screen could not be shown' });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
    expect(document.body.textContent).not.toMatch(/Something went wrong|Cannot read/);
  });

  it('a screen whose code cannot be fetched offline says what works offline and opens once back online', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // The router reloads the page once on such a failure; that reload has happened already.
    sessionStorage.setItem(`tanstack_router_reload:${FETCH_FAILED}`, '1');
    setOnline(false);
    let reachable = false;
    const importer = vi.fn(async () => {
      if (!reachable) throw new TypeError(FETCH_FAILED);
      return { Screen: Research };
    });
    mount('/lazy', importer);
    expect(await screen.findByRole('heading', { name: 'This screen needs a connection the first time' })).toBeTruthy();
    expect(screen.getByText(/This device is offline/)).toBeTruthy();
    expect(screen.getByText(/recording works offline: recorded audio is kept on this device/)).toBeTruthy();

    reachable = true;
    await act(async () => setOnline(true));
    expect(await screen.findByRole('heading', { name: 'Research' })).toBeTruthy();
  });

  it('with the connection up but the server down, tries again by itself now and then, and on request', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    sessionStorage.setItem(`tanstack_router_reload:${FETCH_FAILED}`, '1');
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    let attempts = 0;
    const importer = vi.fn(async () => {
      attempts += 1;
      if (attempts < 3) throw new TypeError(FETCH_FAILED);
      return { Screen: Templates };
    });
    // Timers that also run on their own, so that the router's and the screen's own waits go on.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mount('/lazy', importer);
    expect(await screen.findByText(/The server cannot be reached right now/)).toBeTruthy();
    expect(attempts).toBe(1);
    await act(async () => {
      vi.advanceTimersByTime(RETRY_EVERY_MS);
    });
    await vi.waitFor(() => expect(attempts).toBe(2));
    expect(await screen.findByText(/The server cannot be reached right now/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Templates' })).toBeTruthy();
  });
});
