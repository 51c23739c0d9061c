import { Trans } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { PairPhoneCard } from '../../pairing/PairPhoneCard';

/** The bookmarklet: a bookmark that brings this app forward from any page (pasting notes comes with its own feature). */
export function bookmarkletCode(origin: string): string {
  return `javascript:(function(){window.open(${JSON.stringify(`${origin}/`)},'consultation-notes');})();`;
}

/** Spec §2 settings › tools: pairing the phone, and the bookmarklet to install. */
export function ToolsSection() {
  const link = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    // React refuses javascript: addresses in JSX (rightly, for user data); this one is ours and fixed.
    link.current?.setAttribute('href', bookmarkletCode(window.location.origin));
  }, []);
  return (
    <div className="settings-section">
      <PairPhoneCard />
      <section className="card" aria-labelledby="bookmarklet-title">
        <h2 id="bookmarklet-title">
          <Trans>Bookmarklet</Trans>
        </h2>
        <p className="muted">
          <Trans>Drag this button to your browser's bookmarks bar. Clicking the bookmark from any page, such as your clinic's record system, brings Consultation Notes forward.</Trans>
        </p>
        <a ref={link} className="button" data-variant="secondary" draggable onClick={(e) => e.preventDefault()} data-testid="bookmarklet">
          <Trans>Consultation Notes</Trans>
        </a>
      </section>
    </div>
  );
}
