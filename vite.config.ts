import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/vite-precompress.ts';

/** The SPA build; in development `/api` is proxied to the API server started by `npm run dev`. */
export default defineConfig({
  plugins: [react(), precompress()],
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
            // Only the pages whose services parse answers with zod load it; the sign-in pages do not.
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/, priority: 30 },
            // The text diff of the history and the compare mode loads with them, not with every page (decision 050).
            { name: 'diff', test: /[\\/]node_modules[\\/]diff[\\/]/, priority: 30 },
            // The tus client and its helpers: only the artifact edit pages (the uploads) load them.
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
            { name: 'vendor', test: /[\\/]node_modules[\\/]/, priority: 20 },
            // Everything the entry imports statically stays in the entry's chunk: without this group
            // the bundler split modules that lazily loaded pages share with the shell (the session
            // marker, the button, the theme) into small chunks of their own, each one more request
            // for every first page (decision 042).
            { name: 'shell', tags: ['$initial'], priority: 10 },
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
