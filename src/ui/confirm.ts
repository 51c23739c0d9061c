import { appStore, confirmAtom, type ConfirmType } from '../app-state';

export type ConfirmOptions = {
  type?: ConfirmType;
  title: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
};

/**
 * Asks the general confirmation dialog (spec §2) and resolves true on confirm, false on cancel or close.
 * A new question while one is open answers the old one with false.
 */
export function confirm(options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    appStore.get(confirmAtom)?.resolve(false);
    appStore.set(confirmAtom, { type: options.type ?? 'confirm', ...options, resolve });
  });
}
