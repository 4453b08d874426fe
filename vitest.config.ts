import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/** The API tests that store, serve, copy, archive or delete files, and the mobile contract suite. */
const S3_MEDIA_TESTS = [
  'server/src/routes/media*.test.ts',
  'server/src/routes/resumable*.test.ts',
  'server/src/routes/archiveRoutes.test.ts',
  'server/src/routes/sharedArtifactCopy.test.ts',
  'server/src/routes/unsavedArtifacts.test.ts',
  'server/src/routes/versionRecording.test.ts',
  'server/src/routes/momentRoutes.test.ts',
  'server/src/routes/authorizationMatrix/files.test.ts',
  'server/src/storageRegressions.test.ts',
  'server/src/backup/backup.test.ts',
  'server/src/securityRegressions/{media,load,sharedWrites}.test.ts',
  'server/test/contract/*.test.ts',
];

/**
 * Test projects: `server` (API integration on a real database, schemas, server units), `server-s3`
 * (those of them about stored files again, with the media in a real S3 server), `server-restored`
 * (the mobile contract suite on a database restored from a backup),
 * `client` (services, machines and views in jsdom), `model` (model-based path tests of every
 * machine, driving the real views) and `e2e` (Chromium against the real server; run by `npm run test:e2e`).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'src/schemas/**/*.test.ts', 'scripts/**/*.test.ts'],
          globalSetup: ['server/test/globalSetup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        // The tests of stored files again, with the media in the run's S3 server (MEDIA_STORE=s3).
        test: {
          name: 'server-s3',
          environment: 'node',
          include: S3_MEDIA_TESTS,
          env: { TEST_MEDIA_STORE: 's3' },
          globalSetup: ['server/test/globalSetup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        // The mobile contract suite on a restored portal: each file's database is the run's backup
        // of the demo data, restored (server/test/globalSetup.ts).
        test: {
          name: 'server-restored',
          environment: 'node',
          include: ['server/test/contract/*.test.ts'],
          globalSetup: ['server/test/globalSetup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: ['src/schemas/**'],
          setupFiles: ['src/test/setup.ts'],
          testTimeout: 15_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'model',
          environment: 'jsdom',
          include: ['tests/model/**/*.test.{ts,tsx}'],
          globalSetup: ['tests/model/support/globalSetup.ts'],
          setupFiles: ['src/test/setup.ts'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.spec.ts'],
          globalSetup: ['e2e/globalSetup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          pool: 'forks',
        },
      },
    ],
  },
});
