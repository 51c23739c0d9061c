import { Trans, useLingui } from '@lingui/react/macro';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { catalogApi, type CatalogView } from '../../api/catalog';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { useStartConsultation } from '../home/ConsultationTypesList';
import { describeFailure } from '../i18n/api-error-messages';
import { AssistantsCatalog, KIND_NAMES } from './AssistantsCatalog';

/**
 * Home-v2: quick access (the recent completed consultations, pinned assistants and recommendations) beside the
 * assistants catalogue on desktops, above it on phones.
 */
export function CatalogHome({ recent }: { recent: ReactNode }) {
  const { i18n, t } = useLingui();
  const [catalog, setCatalog] = useState<CatalogView>();
  const [error, setError] = useState<string>();
  const { start, starting, error: startError } = useStartConsultation();

  const load = useCallback(() => catalogApi.get().then(setCatalog, (err) => setError(describeFailure(i18n, err))), [i18n]);
  useEffect(() => void load(), [load]);

  async function togglePin(id: string) {
    try {
      await (catalog?.pins.includes(id) ? catalogApi.unpin(id) : catalogApi.pin(id));
      await load();
    } catch (err) {
      setError(describeFailure(i18n, err));
    }
  }

  // The recent consultations come from their own request: they are shown even while the catalogue loads or fails.
  if (!catalog)
    return (
      <div className="home-v2">
        <section aria-labelledby="quick-title" className="quick-access">
          <h2 id="quick-title">
            <Trans>Quick access</Trans>
          </h2>
          {recent}
        </section>
        {error ? (
          <Alert tone="error">{error}</Alert>
        ) : (
          <p role="status">
            <Trans>Loading…</Trans>
          </p>
        )}
      </div>
    );
  const byId = (id: string) => [...catalog.assistants, ...catalog.custom_assistants].find((a) => a.id === id);
  const card = (id: string, pinned: boolean) => {
    const a = byId(id);
    if (!a) return null;
    return (
      <li key={id} className="card type-card" data-testid={pinned ? 'pinned-assistant' : 'recommended-assistant'}>
        <h4>{a.name}</h4>
        <p className="muted">{i18n._(KIND_NAMES[a.kind])}</p>
        <div className="form-actions">
          <Button onClick={() => void start(a.id)} busy={starting === a.id} aria-label={t`Start: ${a.name}`}>
            <Trans>Start</Trans>
          </Button>
          {pinned && (
            <Button variant="ghost" onClick={() => void togglePin(a.id)} aria-label={t`Unpin ${a.name}`}>
              <Trans>Unpin</Trans>
            </Button>
          )}
        </div>
      </li>
    );
  };

  return (
    <div className="home-v2">
      {(error || startError) && <Alert tone="error">{startError ?? error}</Alert>}
      <section aria-labelledby="quick-title" className="quick-access">
        <h2 id="quick-title">
          <Trans>Quick access</Trans>
        </h2>
        {recent}
        <h3>
          <Trans>Pinned</Trans>
        </h3>
        {catalog.pins.length === 0 ? (
          <p className="muted">
            <Trans>Pin the assistants you use most from the catalogue below.</Trans>
          </p>
        ) : (
          <ul className="type-list">{catalog.pins.map((id) => card(id, true))}</ul>
        )}
        <h3>
          <Trans>Recommended for you</Trans>
        </h3>
        <ul className="type-list">{catalog.recommendations.map((id) => card(id, false))}</ul>
      </section>
      <AssistantsCatalog catalog={catalog} onTogglePin={(id) => void togglePin(id)} onStart={(id) => void start(id)} starting={starting} />
    </div>
  );
}
