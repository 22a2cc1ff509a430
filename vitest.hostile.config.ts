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
    // Files start their own server processes: two files at a time on two cores.
    pool: 'forks',
    maxWorkers: 2,
    minWorkers: 1,
    testTimeout: 240_000,
    hookTimeout: 120_000,
  },
});
