/**
 * Uncaught errors, unhandled rejections and React errors go to Sentry, but only when the server was given a
 * SENTRY_DSN (it reaches the page as a meta tag). Without one, the Sentry SDK is not even downloaded.
 */
export const ERROR_REPORTING = { environment: 'production', release: '1.0.0' } as const;

type Reporter = { captureException: (err: unknown) => void };
let reporter: Reporter | undefined;

export function configuredDsn(doc: Document = document): string | undefined {
  const dsn = doc.querySelector('meta[name="sentry-dsn"]')?.getAttribute('content')?.trim();
  return dsn || undefined;
}

export async function initErrorReporting(
  dsn = configuredDsn(),
  load: () => Promise<typeof import('@sentry/react')> = () => import('@sentry/react'),
): Promise<boolean> {
  if (!dsn) return false;
  const Sentry = await load();
  // The SDK's default integrations catch window errors and unhandled rejections.
  Sentry.init({ dsn, ...ERROR_REPORTING });
  reporter = Sentry;
  return true;
}

/** For React's root error callbacks: errors React caught or could not recover from. */
export function reportReactError(error: unknown): void {
  reporter?.captureException(error);
  console.error(error);
}
