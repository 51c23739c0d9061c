import { describe, expect, it } from 'vitest';
import { addToNote } from './add-to-note';

describe('adding what was said to the note', () => {
  const note = '# Notes\n\n## Subjective\n- Cough for 3 days.\n\n## Objective\n[to be completed]\n\n## Plan\n- Rest.\n- Medication: [to be completed]\n';
  it('goes at the end of its section', () => {
    expect(addToNote(note, 'Temperature 38.2.', 'objective', 'Objective')).toBe(
      '# Notes\n\n## Subjective\n- Cough for 3 days.\n\n## Objective\n[to be completed]\n- Temperature 38.2.\n\n## Plan\n- Rest.\n- Medication: [to be completed]\n',
    );
    expect(addToNote(note, 'Come back in 2 weeks.', 'plan', 'Plan').endsWith('- Medication: [to be completed]\n- Come back in 2 weeks.\n')).toBe(true);
  });
  it('finds the section in another language or as an engine named it, and adds a heading when there is none', () => {
    expect(addToNote('## Avaliação\n- Amigdalite.\n', 'Sem febre.', 'assessment', 'Avaliação')).toBe('## Avaliação\n- Amigdalite.\n- Sem febre.\n');
    expect(addToNote('## History of present illness\nPain.\n\n## Assessment and plan\nRest.\n', 'Ibuprofen 400 mg.', 'plan', 'Plan')).toBe(
      '## History of present illness\nPain.\n\n## Assessment and plan\nRest.\n- Ibuprofen 400 mg.\n',
    );
    expect(addToNote('Free text only.', 'Penicillin allergy.', 'subjective', 'Subjective')).toBe('Free text only.\n\n## Subjective\n\n- Penicillin allergy.\n');
  });
});
