import { Trans, useLingui } from '@lingui/react/macro';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { accountApi } from '../../api/account';
import { pairingApi } from '../../api/pairing';
import { authAtom, updateUser } from '../../app-state';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { describeFailure } from '../i18n/api-error-messages';

type Pairing = { url: string; svg: string; expiresAt: number };

/**
 * Mobile mode: the phone records, the computer follows. The QR code signs the phone in (a two-minute,
 * single-use link), and switching the account to mobile mode makes this computer follow the phone's
 * consultations (features/pairing/ActiveSessionFollower.tsx).
 */
export function PairPhoneCard() {
  const { i18n, t } = useLingui();
  const user = useAtomValue(authAtom)?.user;
  const [pairing, setPairing] = useState<Pairing>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [now, setNow] = useState(Date.now());
  const following = user?.consultation_mode === 'mobile';

  useEffect(() => {
    if (!pairing) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [pairing]);

  async function setMode(mode: 'mobile' | 'normal') {
    const { d_user } = await accountApi.updateAccount({ consultation_mode: mode });
    updateUser(d_user);
  }

  async function pair() {
    setBusy(true);
    setError(undefined);
    try {
      const [{ url, expires_at }, QRCode] = await Promise.all([pairingApi.qrToken(), import('qrcode')]);
      const svg = await QRCode.toString(url, { type: 'svg', margin: 1, width: 220, errorCorrectionLevel: 'M' });
      setPairing({ url, svg, expiresAt: new Date(expires_at).getTime() });
      if (!following) await setMode('mobile');
    } catch (err) {
      setError(describeFailure(i18n, err));
    } finally {
      setBusy(false);
    }
  }

  const secondsLeft = pairing ? Math.max(0, Math.round((pairing.expiresAt - now) / 1000)) : 0;
  return (
    <section className="card pair-card" aria-labelledby="pair-title">
      <h2 id="pair-title">
        <Trans>Record with your phone</Trans>
      </h2>
      <p className="muted">
        <Trans>Scan the code with your phone: it signs in, records the consultation, and the notes appear on this computer.</Trans>
      </p>
      {error && <Alert tone="error">{error}</Alert>}
      {pairing && secondsLeft > 0 ? (
        <div className="pair-code">
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the SVG is drawn here by the qrcode library from our own pairing link; no outside markup. */}
          <div className="qr" role="img" aria-label={t`QR code to sign in on your phone`} dangerouslySetInnerHTML={{ __html: pairing.svg }} />
          <div>
            <p>
              <Trans>Or open this link on the phone:</Trans>
            </p>
            <p>
              <a href={pairing.url} className="pair-link" data-testid="pair-link">
                {pairing.url}
              </a>
            </p>
            <p className="muted" role="timer">
              <Trans>Valid for {secondsLeft} seconds, once.</Trans>
            </p>
          </div>
        </div>
      ) : (
        <Button onClick={pair} busy={busy}>
          {pairing ? <Trans>Show a new code</Trans> : <Trans>Pair my phone</Trans>}
        </Button>
      )}
      {following && (
        <p className="muted pair-following">
          <Trans>This computer follows the consultations you record on your phone.</Trans>{' '}
          <button type="button" className="link-button" onClick={() => void setMode('normal').catch(() => undefined)}>
            <Trans>Stop following</Trans>
          </button>
        </p>
      )}
    </section>
  );
}
