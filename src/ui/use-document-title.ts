import { useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';

/**
 * The browser tab's title for a screen: "<screen> · <product>", so that a clinician with several tabs open tells
 * them apart (the consultation screen names its patient label). Undefined while the screen does not know its own
 * name yet: the product's name alone. Leaving the screen puts the product's name back.
 */
export function useDocumentTitle(screen: string | undefined): void {
  const { t } = useLingui();
  const product = t`Consultation Notes`;
  useEffect(() => {
    document.title = screen ? `${screen} · ${product}` : product;
    return () => {
      document.title = product;
    };
  }, [screen, product]);
}
