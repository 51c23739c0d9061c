import { STORAGE_KEYS } from '../offline/storage-keys';

/**
 * When the app's typeface (Inter, fonts.css) is used.
 *
 * localStorage `web_font`: set once Inter was loaded in this browser, so later visits (the font now in the service
 * worker's or the HTTP cache) use it from the first screen on. Not personal data; gone with the site data.
 *
 * On a first visit the screens are drawn in a local font shaped to Inter's measures, and Inter is fetched only once
 * the page has loaded and its first screen has had a moment to ask the server for its content: on a slow phone link
 * its 49 KB would otherwise share the link with the code and the first answers and delay the first screen's text.
 */
const FAMILY = "'Inter Variable'";
// After the load event: long enough for the first screen's questions to the server to have gone and come back on
// an ordinary mobile link, short enough that the swap happens while the clinician is still reading.
const SETTLE_MS = 1500;

function applyInter(): void {
  document.documentElement.dataset.font = 'inter';
}

export function loadWebFont(): void {
  let seen: string | null = null;
  try {
    seen = localStorage.getItem(STORAGE_KEYS.webFont);
  } catch {
    // Storage refused (a private mode): every visit is then a first visit.
  }
  if (seen) {
    applyInter();
    return;
  }
  const fetchFont = () =>
    document.fonts.load(`400 1em ${FAMILY}`).then(
      (faces) => {
        if (faces.length === 0) return;
        applyInter();
        try {
          localStorage.setItem(STORAGE_KEYS.webFont, '1');
        } catch {
          // Not kept: the next visit starts in the local font again.
        }
      },
      // Offline or refused: the local font stays, and the next visit tries again.
      () => undefined,
    );
  const afterLoad = () => setTimeout(fetchFont, SETTLE_MS);
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
}
