import { i18n } from '@lingui/core';

// Components under test render English source texts unless a test activates another catalog.
i18n.loadAndActivate({ locale: 'en', messages: {} });
