import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { ConsultationTypeView } from '../../../contract/consultations';
import type { CatalogView } from '../../api/catalog';
import { Button } from '../../ui/Button';
import { SelectField } from '../../ui/SelectField';
import { TextField } from '../../ui/TextField';
import { catalogTree, type Kind, type Section } from './catalog-tree';

export const KIND_NAMES: Record<Kind, MessageDescriptor> = { note_taker: msg`Note taker`, dictaphone: msg`Dictaphone`, report: msg`Report` };
const SECTION_NAMES: Record<Section, MessageDescriptor> = { public: msg`Public`, custom: msg`Custom assistants`, test: msg`Test and experimental` };

type Props = {
  catalog: CatalogView;
  onTogglePin: (id: string) => void;
  onStart: (id: string) => void;
  starting?: string;
};

/** Spec §2 assistants catalogue: search, country catalogue, a tree by section and kind, a details panel with pin and start. */
export function AssistantsCatalog({ catalog, onTogglePin, onStart, starting }: Props) {
  const { i18n, t } = useLingui();
  const [catalogue, setCatalogue] = useState<string>(catalog.home_catalogue);
  const [query, setQuery] = useState('');
  const [selectedId, setSelectedId] = useState<string>();
  const tree = catalogTree(catalog.assistants, catalog.custom_assistants, catalogue, query);
  const selected: ConsultationTypeView | undefined = [...catalog.assistants, ...catalog.custom_assistants].find((a) => a.id === selectedId);

  return (
    <section className="card catalog" aria-labelledby="catalog-title">
      <h2 id="catalog-title">
        <Trans>Assistants catalogue</Trans>
      </h2>
      <div className="catalog-controls">
        <TextField label={t`Search assistants`} type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
        <SelectField
          label={t`Country catalogue`}
          value={catalogue}
          onChange={(e) => setCatalogue(e.target.value)}
          options={catalog.catalogues.map((c) => ({ value: c.id, label: c.name }))}
        />
      </div>
      <div className="catalog-body">
        <nav className="catalog-tree" aria-label={t`Assistants`}>
          {tree.length === 0 && (
            <p className="muted">
              <Trans>No assistant matches your search.</Trans>
            </p>
          )}
          {tree.map((branch) => (
            <div key={branch.section} className="catalog-branch">
              <h3>{i18n._(SECTION_NAMES[branch.section])}</h3>
              {branch.kinds.map((k) => (
                <div key={k.kind}>
                  <h4>{i18n._(KIND_NAMES[k.kind])}</h4>
                  <ul>
                    {k.assistants.map((a) => (
                      <li key={a.id}>
                        <button
                          type="button"
                          className="catalog-item"
                          aria-current={a.id === selectedId ? 'true' : undefined}
                          onClick={() => setSelectedId(a.id)}
                        >
                          {a.name}
                          {catalog.pins.includes(a.id) && <span className="visually-hidden"> {t`(pinned)`}</span>}
                        </button>
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </div>
          ))}
        </nav>
        <div className="catalog-details" aria-live="polite">
          {selected ? (
            <>
              <h3>{selected.name}</h3>
              <p className="muted">
                {i18n._(KIND_NAMES[selected.kind])} · {catalog.catalogues.find((c) => c.id === selected.catalogue)?.name}
              </p>
              <p>{selected.description}</p>
              <p className="type-documents">{[selected.main_document, ...selected.selectable_documents].map((d) => d.name).join(' · ')}</p>
              <div className="form-actions">
                <Button onClick={() => onStart(selected.id)} busy={starting === selected.id} aria-label={t`Start: ${selected.name}`}>
                  <Trans>Start</Trans>
                </Button>
                <Button variant="secondary" aria-pressed={catalog.pins.includes(selected.id)} onClick={() => onTogglePin(selected.id)}>
                  {catalog.pins.includes(selected.id) ? <Trans>Unpin</Trans> : <Trans>Pin to quick access</Trans>}
                </Button>
              </div>
            </>
          ) : (
            <p className="muted">
              <Trans>Choose an assistant to see what it writes.</Trans>
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
