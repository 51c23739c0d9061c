import { describe, expect, it } from 'vitest';
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
});
