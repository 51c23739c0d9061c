/**
 * Criteria read from a trial's description (a protocol summary pasted in). Without AI the description's own lists
 * under inclusion / exclusion headings become criteria, word for word; with AI the model may also split and
 * classify them. Either way the researcher reviews and edits what was added.
 */
import type { Conversation, TextGenerator } from '../../ai/text-generator.js';
import { CRITERION_TYPES, type CriterionType } from './criteria.js';
import { normalise } from '../../clinical/record-text.js';

export type DraftCriterion = { definition: string; type: CriterionType };

const INCLUSION = /^(?:#+\s*)?(?:\d+[.)]\s*)?(inclusion criteria|criteria for inclusion|criterios de inclusao|einschlusskriterien|criterios de inclusion)\b/;
const EXCLUSION = /^(?:#+\s*)?(?:\d+[.)]\s*)?(exclusion criteria|criteria for exclusion|criterios de exclusao|ausschlusskriterien|criterios de exclusion)\b/;
const OTHER_HEADING = /^(?:#+\s*)?[\p{L} ]{3,40}:\s*$|^#+\s/u;

export function extractCriteria(description: string): DraftCriterion[] {
  const found: DraftCriterion[] = [];
  let current: CriterionType | undefined;
  for (const raw of description.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const n = normalise(line);
    if (INCLUSION.test(n) || EXCLUSION.test(n)) {
      current = INCLUSION.test(n) ? 'critical_inclusion' : 'critical_exclusion';
      // 'Inclusion criteria: adults with …' carries a criterion on the heading's own line.
      const rest = line.slice(line.indexOf(':') + 1).trim();
      if (line.includes(':') && rest) found.push({ definition: rest, type: current });
      continue;
    }
    if (!current) continue;
    if (OTHER_HEADING.test(line)) {
      current = undefined;
      continue;
    }
    const definition = line.replace(/^(?:[-*•·–]|\d+[.)]|[a-z][.)])\s+/i, '').trim();
    if (definition.length >= 3) found.push({ definition: definition.slice(0, 1000), type: current });
  }
  return found;
}

const SYSTEM = [
  'You read a clinical trial description and list its eligibility criteria.',
  'Answer with JSON only: {"criteria":[{"definition":"…","type":"critical_inclusion|critical_exclusion|non_critical_inclusion|non_critical_exclusion"}]}.',
  'One checkable condition per criterion, in the language of the description. Use only what the description says; invent nothing.',
  'Critical means a patient who fails it cannot take part; non-critical means it may be waived by the investigator.',
].join('\n');

/** The model's list, or undefined when its answer is not the JSON asked for. */
export function parseModelCriteria(answer: string): DraftCriterion[] | undefined {
  const json = answer.slice(answer.indexOf('{'), answer.lastIndexOf('}') + 1);
  try {
    const parsed = JSON.parse(json) as { criteria?: { definition?: unknown; type?: unknown }[] };
    if (!Array.isArray(parsed.criteria)) return undefined;
    return parsed.criteria
      .filter(
        (c): c is { definition: string; type: CriterionType } =>
          typeof c.definition === 'string' && c.definition.trim().length >= 3 && CRITERION_TYPES.includes(c.type as CriterionType),
      )
      .map((c) => ({ definition: c.definition.trim().slice(0, 1000), type: c.type }));
  } catch {
    return undefined;
  }
}

/** The criteria, and who found them: the model, or the description's own lists when there is no model or it failed. */
export async function generateCriteria(
  generator: TextGenerator,
  description: string,
  onModelError?: (err: unknown) => void,
): Promise<{ criteria: DraftCriterion[]; engine: string }> {
  const offline = () => ({ criteria: extractCriteria(description), engine: 'offline' });
  if (!generator.converse) return offline();
  const conversation: Conversation = { system: SYSTEM, messages: [{ role: 'user', content: `<trial_description>\n${description}\n</trial_description>` }] };
  let answer = '';
  try {
    for await (const delta of generator.converse(conversation)) answer += delta;
  } catch (err) {
    onModelError?.(err);
    return offline();
  }
  // A model that does not answer in the shape asked still leaves the researcher the description's own lists.
  const criteria = parseModelCriteria(answer);
  return criteria ? { criteria, engine: generator.info.engine } : offline();
}
