import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { api } from '../../api/instance';
import { call } from '../../api/client';
import { Button } from '../../ui/Button';

type Announcement = { id: string; title: string; body: string; published_at: string };

/**
 * Spec §2 home announcements carousel. It never moves on its own (WCAG 2.2.2): the clinician pages through with
 * the buttons; the slide change is announced politely. `hidden`: asked for already, shown later.
 */
export function AnnouncementsCarousel({ hidden = false }: { hidden?: boolean }) {
  const { i18n, t } = useLingui();
  const [items, setItems] = useState<Announcement[]>([]);
  const [index, setIndex] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: i18n.locale: fetched again when the language changes, as the server answers in it.
  useEffect(() => {
    call(() => api().get('v1/announcements').json<{ announcements: Announcement[] }>()).then(
      (r) => {
        setItems(r.announcements);
        setIndex(0);
      },
      () => setItems([]),
    );
  }, [i18n.locale]);

  if (hidden || items.length === 0) return null;
  const current = items[Math.min(index, items.length - 1)]!;
  const position = index + 1;
  const total = items.length;
  return (
    <section className="card announcements" aria-roledescription={t`carousel`} aria-label={t`Announcements`}>
      {/* biome-ignore lint/a11y/useSemanticElements: the carousel pattern's slide is a group of content, not of form controls, which a fieldset is for. */}
      <div aria-live="polite" aria-atomic="true" role="group" aria-roledescription={t`slide`} aria-label={t`${position} of ${total}`}>
        <h2 className="announcement-title">{current.title}</h2>
        <p>{current.body}</p>
        <p className="muted">{i18n.date(current.published_at, { dateStyle: 'medium' })}</p>
      </div>
      {total > 1 && (
        <div className="form-actions">
          <Button variant="secondary" onClick={() => setIndex((i) => (i - 1 + total) % total)} aria-label={t`Previous announcement`}>
            ‹
          </Button>
          <span className="muted">
            <Trans>
              {position} of {total}
            </Trans>
          </span>
          <Button variant="secondary" onClick={() => setIndex((i) => (i + 1) % total)} aria-label={t`Next announcement`}>
            ›
          </Button>
        </div>
      )}
    </section>
  );
}
