import { describe, expect, it } from 'vitest';
import { templateErrors } from './TemplateForm';

describe('templateErrors', () => {
  it('asks for a name and a text, within the limits', () => {
    expect(templateErrors({ name: 'SOAP', template: 'S: O: A: P:' })).toEqual({});
    expect(templateErrors({ name: '  ', template: '' })).toEqual({ name: 'required', template: 'required' });
    expect(templateErrors({ name: 'x'.repeat(121), template: 'x'.repeat(20_001) })).toEqual({ name: 'too_long', template: 'too_long' });
  });
});
