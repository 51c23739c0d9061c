import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { bookmarkletCode } from '../../bookmarklet/bookmarklet';
import { PairPhoneCard } from '../../pairing/PairPhoneCard';

/** Spec §2 settings › tools: pairing the phone, and the bookmarklet to install. */
export function ToolsSection() {
  const { t } = useLingui();
  const link = useRef<HTMLAnchorElement>(null);
  const noTextBox = t`Consultation Notes: this page has no text box to paste into. Click in the text box first.`;
  useEffect(() => {
    // React refuses javascript: addresses in JSX (rightly, for user data); this one is ours and fixed.
    link.current?.setAttribute('href', bookmarkletCode(window.location.origin, noTextBox));
  }, [noTextBox]);
  return (
    <div className="settings-section">
      <PairPhoneCard />
      <section className="card" aria-labelledby="bookmarklet-title">
        <h2 id="bookmarklet-title">
          <Trans>Bookmarklet</Trans>
        </h2>
        <p className="muted">
          <Trans>
            Drag this button to your browser's bookmarks bar. In your clinic's record system, click in a text box, then click the bookmark: choose a note in the
            window that opens and it is pasted there.
          </Trans>
        </p>
        {/* biome-ignore lint/a11y/useValidAnchor: the href, a javascript: bookmarklet, is set after render (above); the click is cancelled so it runs only from the bookmarks bar. */}
        {/* biome-ignore lint/a11y/noStaticElementInteractions: a link once its href is set. */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: a link: Enter on it fires the same cancelled click. */}
        <a ref={link} className="button" data-variant="secondary" draggable onClick={(e) => e.preventDefault()} data-testid="bookmarklet">
          <Trans>Consultation Notes</Trans>
        </a>
      </section>
    </div>
  );
}
