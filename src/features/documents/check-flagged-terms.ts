import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { confirm } from '../../ui/confirm';

/**
 * Asks the clinician to check the terms a model wrote that no source says, before a text leaves the app or is
 * signed. True once they say they have.
 */
export function askToCheckFlaggedTerms(i18n: I18n, flagged: readonly string[]): Promise<boolean> {
  const terms = flagged.join(', ');
  return confirm({
    type: 'warning',
    title: i18n._(msg`Check these terms first`),
    message: i18n._(msg`The AI wrote terms that are not in the transcript or your inputs: ${terms}. Check them in the text before it goes into the record.`),
    confirmLabel: i18n._(msg`I have checked them`),
  });
}
