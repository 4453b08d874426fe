import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The SPA build; in development `/api` is proxied to the API server started by `npm run dev`. */
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${process.env['API_PORT'] ?? '3001'}`, changeOrigin: false } },
  },
});
