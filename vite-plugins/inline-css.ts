import type { Plugin } from 'vite';

/**
 * The app's stylesheet written into index.html instead of linked from it: the first paint (the mark and name of
 * the boot screen, then every screen) no longer waits for a second round trip, a slow one on a phone's mobile
 * link. It is one small file (about 5 KB compressed) used by every screen, so nothing is gained by caching it apart.
 *
 * Code split from the entry lists the entry's stylesheet among what it needs before it runs, and Vite's loader
 * adds a <link> for it unless the page already has one: the link stays, disabled (a disabled stylesheet is neither
 * fetched nor applied), so that the loader sees it and the file is never fetched.
 */
export function inlineCss(): Plugin {
  return {
    name: 'inline-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        return html.replace(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g, (link, file: string) => {
          const asset = bundle[file];
          if (asset?.type !== 'asset') return link;
          // No "</style" can end the element early: the stylesheet comes from our own sources.
          const css = String(asset.source).replace(/<\/style/gi, '<\\/style');
          return `<style>${css}</style><link rel="stylesheet" href="/${file}" disabled>`;
        });
      },
    },
  };
}
