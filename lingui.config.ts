import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

// Message ids are the English texts; pt is the product's default language, en the source catalog.
export default defineConfig({
  sourceLocale: 'en',
  locales: ['pt', 'en', 'de', 'es'],
  fallbackLocales: { default: 'en' },
  catalogs: [{ path: '<rootDir>/src/locales/{locale}/messages', include: ['src'], exclude: ['**/*.test.*', 'src/routeTree.gen.ts'] }],
  format: formatter(),
});
