import type { Plugin, Rollup } from 'vite';
import { DEFAULT_LOCALE } from '../src/features/i18n/locale.ts';
import { STORAGE_KEYS } from '../src/offline/storage-keys.ts';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

/**
 * Starts, while index.html is still being read, the downloads the screen being opened will ask for: its route's
 * code, the signed-in frame's code and the interface language's catalog. Without it they wait for the app's
 * main script to arrive and run (the catalog), then for the router to match the address (the route code): three
 * round trips in a row on a slow mobile link before the first API question is even asked.
 *
 * A small inline script (the server's Content-Security-Policy allows it by its hash, read from the built
 * index.html at start) picks the language exactly as the app does (saved choice, then the browser's languages,
 * then pt) and the route by the address. Only for the signed-in screens, and only when a session is stored
 * (without one the app goes to sign-in): on the sign-in screens, small already, Lighthouse's slow-4G model found
 * the head start cost more in competition with the stylesheet and font than it saved (LCP 1.6 s → 1.8-2.1 s).
 */

const ROUTE_SPLIT = /\/src\/routes\/(.+)\.tsx\?tsr-split=component$/;
const CATALOG = /\/src\/locales\/([a-z]{2})\/messages\.po$/;
// The signed-in layout (src/routes/_app.tsx): every screen under _app/ is drawn inside it.
const SIGNED_IN_LAYOUT = '_app';

/** A route file's name (TanStack Router's flat file convention) as a regular expression of the path it serves. */
export function routePattern(file: string): string {
  const segments = file
    .replace(/^_app\//, '')
    .split('.')
    .filter((segment) => segment !== 'index' && segment !== '');
  let pattern = '';
  for (const segment of segments) {
    if (/^\{-\$[^}]+\}$/.test(segment)) pattern += '(?:/[^/]+)?';
    else if (segment.startsWith('$')) pattern += '/[^/]+';
    else pattern += `/${segment.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}`;
  }
  return `^${pattern || '/'}$`;
}

function staticClosure(bundle: OutputBundle, start: string, skip: Set<string>): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || skip.has(file)) return;
    seen.add(file);
    const chunk = bundle[file];
    if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
  };
  visit(start);
  return [...seen];
}

export function preloadScript(bundle: OutputBundle, entry: OutputChunk): string {
  // What the entry imports statically, Vite already preloads from index.html.
  const preloaded = new Set(staticClosure(bundle, entry.fileName, new Set()));
  const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk');
  const catalogs: Record<string, string> = {};
  const routes: { file: string; chunk: string }[] = [];
  for (const chunk of chunks) {
    const id = chunk.facadeModuleId ?? '';
    const catalog = CATALOG.exec(id);
    if (catalog?.[1]) catalogs[catalog[1]] = chunk.fileName;
    const route = ROUTE_SPLIT.exec(id);
    if (route?.[1]) routes.push({ file: route[1], chunk: chunk.fileName });
  }
  const layout = routes.find((route) => route.file === SIGNED_IN_LAYOUT);
  const files: string[] = [];
  const index = (file: string) => {
    const at = files.indexOf(file);
    return at >= 0 ? at : files.push(file) - 1;
  };
  const table = routes
    .filter((route) => route.file.startsWith(`${SIGNED_IN_LAYOUT}/`))
    .map((route) => {
      const needed = new Set(staticClosure(bundle, route.chunk, preloaded));
      if (layout) staticClosure(bundle, layout.chunk, preloaded).forEach((file) => needed.add(file));
      return [routePattern(route.file), [...needed].map(index)] as const;
    });
  const languages = Object.fromEntries(Object.entries(catalogs).map(([language, file]) => [language, index(file)]));
  const data = JSON.stringify({ f: files, r: table, l: languages });
  // Plain ES5 and wrapped: a failure here only loses the head start, never the app. The storage keys and the
  // default language are the app's own (resolveLocale decides the same way).
  const [token, locale, fallback] = [STORAGE_KEYS.token, STORAGE_KEYS.locale, DEFAULT_LOCALE].map((value) => JSON.stringify(value));
  return `(function(d){try{if(!(localStorage.getItem(${token})||sessionStorage.getItem(${token})))return;var h=function(x){return Object.prototype.hasOwnProperty.call(d.l,x)},L=localStorage.getItem(${locale}),n=navigator.languages||[],i,p,m,k,w=[];if(!h(L)){L=${fallback};for(i=0;i<n.length;i++){k=String(n[i]).toLowerCase().split("-")[0];if(h(k)){L=k;break}}}p=location.pathname.length>1?location.pathname.replace(/\\/+$/,""):"/";for(i=0;i<d.r.length;i++){m=d.r[i];if(new RegExp(m[0]).test(p)){w=m[1].concat(h(L)?[d.l[L]]:[]);break}}for(i=0;i<w.length;i++){k=document.createElement("link");k.rel="modulepreload";k.href="/"+d.f[w[i]];k.setAttribute("data-route-preload","");document.head.appendChild(k)}}catch(e){}})(${data})`;
}

export function routePreloads(): Plugin {
  return {
    name: 'route-preloads',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        const entry = ctx.chunk;
        if (!bundle || !entry) return;
        return [{ tag: 'script', children: preloadScript(bundle, entry), injectTo: 'head' }];
      },
    },
  };
}
