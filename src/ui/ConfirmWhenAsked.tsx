import { useAtomValue } from 'jotai';
import { Component, lazy, Suspense, type ReactNode } from 'react';
import { appStore, authAtom, confirmAtom } from '../app-state';

// The dialog's code (Radix's focus trap and scroll lock) is not part of the first screen. Signed in, it is fetched as
// soon as the browser is idle, so that a question asked during a recording ("Finish this consultation?") never waits
// on the network, nor fails on it after an update replaced the files; it is precached with the shell as well.
const loadConfirmDialog = () => import('./ConfirmDialogHost');
const ConfirmDialogHost = lazy(() => loadConfirmDialog().then((m) => ({ default: m.ConfirmDialogHost })));
if (typeof window !== 'undefined' && appStore.get(authAtom)?.token) {
  const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 2000));
  idle(() => void loadConfirmDialog().catch(() => undefined));
}

/** Should the dialog's code not load at all, the browser's own dialog asks the question instead. */
class ConfirmFallback extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidUpdate() {
    const asked = appStore.get(confirmAtom);
    if (!this.state.failed || !asked) return;
    appStore.set(confirmAtom, null);
    asked.resolve(asked.type === 'info' ? (window.alert(`${asked.title}\n\n${asked.message}`), true) : window.confirm(`${asked.title}\n\n${asked.message}`));
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** The confirmation dialog, mounted while a question is asked (ui/confirm.ts). */
export function ConfirmWhenAsked() {
  const asked = useAtomValue(confirmAtom);
  return asked ? (
    <ConfirmFallback>
      <Suspense fallback={null}>
        <ConfirmDialogHost />
      </Suspense>
    </ConfirmFallback>
  ) : null;
}
