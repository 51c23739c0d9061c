import { Trans, useLingui } from '@lingui/react/macro';
import * as Tabs from '@radix-ui/react-tabs';
import { Link } from '@tanstack/react-router';
import { useDeferredValue, useState } from 'react';
import { useAtomValue } from 'jotai';
import { homeCatalogueOf } from '../../../contract/constants';
import { authAtom } from '../../app-state';
import { isMobileDevice } from '../pairing/ActiveSessionFollower';
import { PairPhoneCard } from '../pairing/PairPhoneCard';
import { CatalogHome } from '../catalog/CatalogHome';
import { ActiveSessionNotice, useActiveStatus } from './ActiveSessionNotice';
import { AnnouncementsCarousel } from './AnnouncementsCarousel';
import { ConsultationTypesList } from './ConsultationTypesList';
import { RecordWithChooser } from './RecordWithChooser';
import { RecentConsultations } from './RecentConsultations';
import { useConsultationTypes } from './useConsultationTypes';
import { ResearchSpacesList } from '../trials/ResearchSpacesList';
import { useDocumentTitle } from '../../ui/use-document-title';

/** Home (and home-v2): start a consultation, choose what records it, and find the recent ones before they are deleted. */
export function HomeScreen({ variant }: { variant: 'home' | 'home-v2' }) {
  const { t } = useLingui();
  useDocumentTitle(t`Consultations`);
  const user = useAtomValue(authAtom)?.user;
  const { types, failed, offline } = useConsultationTypes();
  const activeStatus = useActiveStatus();
  // Drawn at once when what goes at the top is known: nothing then moves under the clinician's finger. Once drawn,
  // it stays (a change of language reloads the types without taking the screen away).
  const [known, setKnown] = useState(false);
  if (!known && activeStatus.settled && (types !== undefined || failed)) setKnown(true);
  // The screen's content is drawn as background work, in slices between which the phone stays responsive to the
  // clinician's touch (one long task otherwise, on a slow phone), the loading line showing until it is done.
  const drawn = useDeferredValue(known);
  const name = user?.name ?? '';
  // The classic home lists the international assistants and those of the clinician's country; home-v2 has the whole catalogue.
  const homeCatalogue = homeCatalogueOf(user?.language ?? 'pt');
  return (
    <>
      {/* The greeting is the page's heading: "Consultations" is already the navigation's and the tab's name. */}
      <h1 className="home-greeting" data-home={variant}>
        <Trans>Welcome, {name}.</Trans>
      </h1>
      <Tabs.Root defaultValue="consultations">
        <Tabs.List className="tabs" aria-label={t`Home`}>
          <Tabs.Trigger value="consultations" className="tab">
            <Trans>Consultations</Trans>
          </Tabs.Trigger>
          <Tabs.Trigger value="trials" className="tab">
            <Trans>Trials</Trans>
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="consultations" className="tab-panel">
          {!drawn ? (
            <p role="status">
              <Trans>Loading…</Trans>
            </p>
          ) : (
            <>
              <ActiveSessionNotice status={activeStatus} />
              {!isMobileDevice() && <RecordWithChooser />}
              {variant === 'home-v2' ? (
                // Home-v2's quick access holds the recent completed consultations beside the pinned and recommended assistants.
                <CatalogHome recent={<RecentConsultations types={types} compact />} />
              ) : (
                <ConsultationTypesList
                  types={types?.filter((ty) => ty.catalogue === 'international' || ty.catalogue === homeCatalogue)}
                  loadFailed={failed}
                  offline={offline}
                />
              )}
            </>
          )}
          {/* Below the first action: news arrives late, and must not push the buttons down when it does. Both are
              asked for with the rest, not one round trip after it, and shown with it. */}
          <AnnouncementsCarousel hidden={!drawn} />
          {variant === 'home' && <RecentConsultations types={types} hidden={!drawn} />}
          {/* One place only: choosing "my phone" must not remount the card and lose its code. */}
          {drawn && !isMobileDevice() && <PairPhoneCard />}
        </Tabs.Content>
        <Tabs.Content value="trials" className="tab-panel">
          <p className="muted">
            <Trans>Screen patients' records against the criteria of clinical trials in a research space.</Trans>
          </p>
          <ResearchSpacesList />
          <Link to="/trials/{-$space}" className="button" data-variant="primary">
            <Trans>All research spaces</Trans>
          </Link>
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}
