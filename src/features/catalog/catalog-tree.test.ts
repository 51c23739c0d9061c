import { describe, expect, it } from 'vitest';
import type { ConsultationTypeView } from '../../../contract/consultations';
import { catalogTree } from './catalog-tree';

const a = (
  id: string,
  kind: ConsultationTypeView['kind'],
  catalogue: ConsultationTypeView['catalogue'],
  section: ConsultationTypeView['section'],
  name = id,
): ConsultationTypeView => ({
  id,
  kind,
  catalogue,
  section,
  name,
  description: `${name} description`,
  show_transcription: false,
  processor_inputs: [],
  main_document: { id: 'x', name: 'x', description: 'x' },
  selectable_documents: [],
});

const all = [
  a('general', 'note_taker', 'international', 'public', 'General'),
  a('dict', 'dictaphone', 'international', 'public', 'Dictaphone'),
  a('report', 'report', 'international', 'test', 'Report'),
  a('pt', 'note_taker', 'pt', 'public', 'Medicina geral'),
  a('de', 'note_taker', 'de', 'public', 'Hausarzt'),
  a('mgf', 'note_taker', 'pt', 'public', 'Medicina Geral e Família'),
];

describe('catalogTree', () => {
  it('groups one country (plus international) by section and kind', () => {
    const tree = catalogTree(all, [], 'pt', '');
    expect(tree.map((b) => b.section)).toEqual(['public', 'test']);
    expect(tree[0]!.kinds.map((k) => [k.kind, k.assistants.map((x) => x.id)])).toEqual([
      ['note_taker', ['general', 'pt', 'mgf']],
      ['dictaphone', ['dict']],
    ]);
  });

  it('searches names and descriptions, dropping empty branches; custom assistants have their section', () => {
    expect(catalogTree(all, [], 'de', 'haus').map((b) => b.kinds.map((k) => k.assistants.map((x) => x.id)))).toEqual([[['de']]]);
    expect(catalogTree(all, [], 'de', 'nothing like this')).toEqual([]);
    expect(catalogTree(all, [a('mine', 'report', 'international', 'public', 'Mine')], 'pt', 'mine').map((b) => b.section)).toEqual(['custom']);
  });

  it('finds accented names typed without accents, and the other way round', () => {
    const ids = (query: string, list = all) => catalogTree(list, [], 'pt', query).flatMap((b) => b.kinds.flatMap((k) => k.assistants.map((x) => x.id)));
    expect(ids('familia')).toEqual(['mgf']);
    expect(ids('FAMÍLIA')).toEqual(['mgf']);
    expect(ids('família', [a('plain', 'note_taker', 'pt', 'public', 'Saude familiar')])).toEqual(['plain']);
  });
});
