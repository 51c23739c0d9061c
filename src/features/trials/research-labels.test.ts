import { describe, expect, it } from 'vitest';
import { criterionVerdictLabel } from './research-labels';

describe("a criterion's verdict, as what it means for the patient", () => {
  it('says an inclusion is satisfied and an exclusion applies, never "met" for both', () => {
    const label = (type: Parameters<typeof criterionVerdictLabel>[0], verdict: Parameters<typeof criterionVerdictLabel>[1]) =>
      criterionVerdictLabel(type, verdict).message;
    expect(label('critical_inclusion', 'met')).toBe('Satisfied');
    expect(label('non_critical_inclusion', 'not_met')).toBe('Not satisfied');
    expect(label('critical_exclusion', 'met')).toBe('Exclusion applies');
    expect(label('non_critical_exclusion', 'not_met')).toBe('Exclusion does not apply');
    expect(label('critical_exclusion', 'unclear')).toBe('Unclear');
  });
});
