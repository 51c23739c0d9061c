import { Trans, useLingui } from '@lingui/react/macro';
import * as Tabs from '@radix-ui/react-tabs';
import { Link } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { homeCatalogueOf } from '../../../contract/constants';
import { authAtom } from '../../app-state';
import { isMobileDevice } from '../pairing/ActiveSessionFollower';
import { PairPhoneCard } from '../pairing/PairPhoneCard';
import { CatalogHome } from '../catalog/CatalogHome';
import { ActiveSessionNotice } from './ActiveSessionNotice';
import { AnnouncementsCarousel } from './AnnouncementsCarousel';
import { ConsultationTypesList } from './ConsultationTypesList';
import { RecordWithChooser } from './RecordWithChooser';
import { RecentConsultations } from './RecentConsultations';
import { useConsultationTypes } from './useConsultationTypes';
import { ResearchSpacesList } from '../trials/ResearchSpacesList';

/** Home (and home-v2): start a consultation, choose what records it, and find the recent ones before they are deleted. */
export function HomeScreen({ variant }: { variant: 'home' | 'home-v2' }) {
  const { t } = useLingui();
  const user = useAtomValue(authAtom)?.user;
  const { types, failed, offline } = useConsultationTypes();
  const name = user?.name ?? '';
  // The classic home lists the international assistants and those of the clinician's country; home-v2 has the whole catalogue.
  const homeCatalogue = homeCatalogueOf(user?.language ?? 'pt');
  return (
    <>
      <p className="muted" data-home={variant}>
        <Trans>Welcome, {name}.</Trans>
      </p>
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
          <h1>
            <Trans>Consultations</Trans>
          </h1>
          <ActiveSessionNotice />
          <AnnouncementsCarousel />
          {!isMobileDevice() && <RecordWithChooser />}
          {variant === 'home-v2' ? <CatalogHome /> : <ConsultationTypesList types={types?.filter((ty) => ty.catalogue === 'international' || ty.catalogue === homeCatalogue)} loadFailed={failed} offline={offline} />}
          <RecentConsultations types={types} />
          {/* One place only: choosing "my phone" must not remount the card and lose its code. */}
          {!isMobileDevice() && <PairPhoneCard />}
        </Tabs.Content>
        <Tabs.Content value="trials" className="tab-panel">
          <h1>
            <Trans>Trials</Trans>
          </h1>
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
