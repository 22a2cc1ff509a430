// Builds the server once for the whole hostile suite (scripts/build.mjs: the bundle `npm start`
// runs with plain Node) into a folder of its own, so that no other build or test races it, and
// hands its entry to the test files. The folder is removed when the suite ends.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the built server's entry (dist/hostile-<pid>/main.js). */
    serverEntry: string;
  }
}

const root = fileURLToPath(new URL('../..', import.meta.url));

export default function setup(project: TestProject) {
  const outdir = `dist/hostile-${process.pid}`;
  execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', outdir], { cwd: root, stdio: 'pipe' });
  project.provide('serverEntry', `${root}${outdir}/main.js`);
  return () => rmSync(`${root}${outdir}`, { recursive: true, force: true });
}
