// Imports started through GraphQL run in the background of the process that accepted them. When
// the server stops, they stop between two records and stay resumable (status `interrupted`).
import type { Config } from '../../config.js';
import type { Prisma } from '../../db/client.js';
import { runImportJob } from './jobs.js';

interface Runner {
  controller: AbortController;
  running: Set<Promise<unknown>>;
}

const runners = new WeakMap<Prisma, Runner>();

export function runImportInBackground(deps: { prisma: Prisma; config: Config }, id: number): void {
  let runner = runners.get(deps.prisma);
  if (!runner) runners.set(deps.prisma, (runner = { controller: new AbortController(), running: new Set() }));
  const run = runImportJob(deps, id, { signal: runner.controller.signal })
    .catch(() => undefined) // runImportJob records its own failures on the job
    .finally(() => runner.running.delete(run));
  runner.running.add(run);
}

/** Stops this database's background imports and waits until each has saved where it stood. */
export async function stopBackgroundImports(prisma: Prisma): Promise<void> {
  const runner = runners.get(prisma);
  if (!runner) return;
  runners.delete(prisma);
  runner.controller.abort();
  await Promise.all(runner.running);
}
