// The hostile suite (`npm run test:hostile`): real server processes (the build, as `npm start` runs
// it) under malformed input, concurrent writers on a shared database, and kill -9.
import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  // As in vitest.config.ts: one graphql-js for our imports and the libraries'.
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }] },
  test: {
    include: ['hostile/**/*.test.ts'],
    globalSetup: ['hostile/support/global-setup.ts'],
    // Files start their own server processes and load both cores: one file at a time, so that no
    // file's load skews another's measurements (the fuzz times GraphQL refusals).
    pool: 'forks',
    maxWorkers: 1,
    minWorkers: 1,
    testTimeout: 240_000,
    hookTimeout: 120_000,
  },
});
