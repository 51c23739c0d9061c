import type { ConsultationTypeView } from '../../../contract/consultations';
import { searchMatcher } from '../i18n/search-match';

export type Section = 'public' | 'custom' | 'test';
export type Kind = ConsultationTypeView['kind'];
export type TreeBranch = { section: Section; kinds: { kind: Kind; assistants: ConsultationTypeView[] }[] };

const KINDS: Kind[] = ['note_taker', 'dictaphone', 'report'];

/**
 * The catalogue as a tree: section → kind → assistants, for one country catalogue (international ones always
 * included), filtered by a search on name and description (ignoring case and accents). Empty branches are left out.
 */
export function catalogTree(assistants: ConsultationTypeView[], custom: ConsultationTypeView[], catalogue: string, query: string): TreeBranch[] {
  const found = searchMatcher(query);
  const matches = (a: ConsultationTypeView) => found(`${a.name} ${a.description}`);
  const inCatalogue = (a: ConsultationTypeView) => a.catalogue === catalogue || a.catalogue === 'international';
  const sections: [Section, ConsultationTypeView[]][] = [
    ['public', assistants.filter((a) => a.section === 'public' && inCatalogue(a))],
    ['custom', custom],
    ['test', assistants.filter((a) => a.section === 'test' && inCatalogue(a))],
  ];
  return sections
    .map(([section, list]) => ({
      section,
      kinds: KINDS.map((kind) => ({ kind, assistants: list.filter((a) => a.kind === kind && matches(a)) })).filter((k) => k.assistants.length > 0),
    }))
    .filter((b) => b.kinds.length > 0);
}
