import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/vite-precompress.ts';
import { styledCss } from './scripts/vite-styled-css.ts';

/** zod and the shared schemas and services. */
const SIGNED_IN = /[\\/]node_modules[\\/]zod[\\/]|[\\/]src[\\/](schemas|services)[\\/]/;
/** Views and machines. */
const APP_CODE = /[\\/]src[\\/](views|machines|app)[\\/]/;
/** Modules that the pages of visitors who are not signed in (home, password reset) share with signed-in pages. */
const PUBLIC_SHARED = /[\\/]src[\\/](schemas[\\/]rules|views[\\/]components[\\/](cardStyles|NewPasswordFields))\./;
/** Of those, what the home page and every signed-in page load: one small chunk. */
const COMMON = /[\\/]src[\\/](schemas[\\/]rules|views[\\/]components[\\/]cardStyles)\./;

/** The SPA build; in development `/api` is proxied to the API server started by `npm run dev`. */
export default defineConfig({
  plugins: [styledCss(), react(), precompress()],
  resolve: {
    // @xstate/react and the signals' runtime ask for the shim of `useSyncExternalStore` that React
    // before 18 needed: React 19 has it, and the selector variant without the shim uses React's own.
    alias: [
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'react' },
      {
        find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/,
        replacement: 'use-sync-external-store/with-selector',
      },
    ],
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    manifest: true,
    chunkSizeWarningLimit: 600,
    // Every browser of the build target but Firefox 114 and Safari 16 preloads modules itself; those
    // two load the same files a moment later without the polyfill (decision 018).
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Libraries in a few chunks of their own, which change only when a dependency does and so
        // stay cached across releases; our code in the entry and one chunk per lazily loaded page
        // (decision 018).
        codeSplitting: {
          groups: [
            // The text diff of the history and the compare mode loads with them, not with every page (decision 050).
            { name: 'diff', test: /[\\/]node_modules[\\/]diff[\\/]/, priority: 30 },
            // The tus client and its helpers: loaded when an upload starts (decision 060).
            {
              name: 'tus',
              test: /[\\/]node_modules[\\/](tus-js-client|js-base64|url-parse|requires-port|querystringify|combine-errors|custom-error-instance|lodash\.uniqby|lodash\.throttle)[\\/]/,
              priority: 30,
            },
            // The chart library and the CSV writer: only the Insights page loads them (decision 057).
            // Without their dependencies (React stays in the vendor chunk, else the entry would load this one).
            {
              name: 'charts',
              includeDependenciesRecursively: false,
              test: /[\\/]node_modules[\\/](@visx|d3-[a-z-]+|internmap|delaunator|robust-predicates|classnames|reduce-css-calc|css-unit-converter|postcss-value-parser|balanced-match|math-expression-evaluator|reduce-function-call|csv-stringify)[\\/]/,
              priority: 30,
            },
            // zod goes with the signed-in pages' services below: the sign-in page does not load it.
            { name: 'vendor', test: /[\\/]node_modules[\\/](?!zod[\\/])/, priority: 20 },
            // Everything the entry imports statically stays in the entry's chunk: without this group
            // the bundler split modules that lazily loaded pages share with the shell (the session
            // marker, the button, the theme) into small chunks of their own, each one more request
            // for every first page (decision 042).
            { name: 'shell', tags: ['$initial'], priority: 10 },
            // The signed-in pages in a few larger chunks instead of one small chunk per set of pages
            // that share a module (decision 060): each file is one more request before a page can
            // draw, six at a time over HTTP/1.1. Below the shell, so nothing leaves the entry; a
            // group takes only its own modules (not what they import), so that the pages of visitors
            // who are not signed in (home, password reset) never load these chunks.
            // 1. What nearly every signed-in page needs: zod, and the schemas and services of four or
            //    more pages. (The account tools and the notification feed stay chunks of their own:
            //    a lazily loaded module taken into a group loses its name in the build manifest, by
            //    which the server preloads it.)
            {
              name: 'signed-in',
              test: (id) => SIGNED_IN.test(id) && !PUBLIC_SHARED.test(id),
              minShareCount: 4,
              priority: 9,
              includeDependenciesRecursively: false,
            },
            // 2. The views and machines that three or more pages share (components, artifact details).
            {
              name: 'components',
              test: (id) => APP_CODE.test(id) && !PUBLIC_SHARED.test(id),
              minShareCount: 3,
              priority: 8,
              includeDependenciesRecursively: false,
            },
            // 3. What the pages for visitors who are not signed in share with the others.
            { name: 'common', test: COMMON, priority: 7 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${process.env['API_PORT'] ?? '3001'}`, changeOrigin: false } },
  },
});
