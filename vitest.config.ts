import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  // Node loads graphql's CommonJS build for the libraries; make our own imports use the same one
  // (vite would pick the .mjs build: two "realms" of graphql that refuse each other's types).
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }] },
  test: {
    include: ['test/**/*.test.ts'],
    // Suites start servers and databases: run files in separate processes, two at a time (2 cores).
    pool: 'forks',
    maxWorkers: 2,
    minWorkers: 1,
    // Safety nets only: tests wait for conditions with their own deadlines and pass as soon as they
    // hold. Generous, because two workers share two cores with whatever else the machine runs.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
