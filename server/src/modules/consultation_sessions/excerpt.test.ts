import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../../contract/constants.js';
import { composeDocument } from '../../ai/offline-composer.js';
import { excerptOf } from './excerpt.js';

describe('excerptOf', () => {
  it('keeps the words, not the headings, emphasis, bullets, links or table rules', () => {
    expect(excerptOf('# Notes\n## Subjective\n- **Cough**, _dry_\n1. `BP` 120/80\n| a | b |\n|---|---|\n> [seen](http://x) today')).toBe(
      'Cough, dry BP 120/80 a b seen today',
    );
  });
  it('starts at the first section: the title, label, date and clinician above it are on every note', () => {
    expect(excerptOf('# Consultation notes\n_Assembled without AI._\n\n**Date:** 24 November 2026\n\n**Clinician:** Dr. Rui\n\n## Subjective\nCough.')).toBe(
      'Cough.',
    );
    expect(excerptOf('Just a line of text')).toBe('Just a line of text');
  });
  it('cuts long text at a word with an ellipsis, and has nothing to say about an empty note', () => {
    const cut = excerptOf('word '.repeat(100), 30)!;
    expect(cut).toBe('word word word word word word…');
    expect(excerptOf('## Plan\n\n')).toBeNull();
  });
  it('has nothing to say about a note of marked blanks only, as written for a consultation with nothing said', () => {
    for (const language of LANGUAGES) {
      const empty = composeDocument({
        documentKind: 'consultation_notes',
        language,
        transcript: '',
        data: {},
        clinician: { name: 'Dra. Ana Lima' },
        date: new Date('2026-11-22T10:00:00Z'),
      });
      expect(excerptOf(empty), language).toBeNull();
    }
    expect(excerptOf('## Subjetivo\n[a preencher]\n## Objetivo\n- Tensão arterial: [a preencher]\n- TA 120/80; FC: [a preencher]')).toBe(
      'TA 120/80; FC: [a preencher]',
    );
  });
});
