// Suites that replay the original's recordings read them from ../shared (beside the clone). Under
// CI a missing recording is an error, never a silent skip; on a developer's machine without it the
// suites are skipped, and say so.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** shared/spec/samples, or SAMPLES_DIR. */
export const SAMPLES_DIR = process.env.SAMPLES_DIR ?? fileURLToPath(new URL('../../../shared/spec/samples/', import.meta.url));

/** True when `file` exists; throws when it does not and CI is set. */
export function sharedFileAvailable(file: string, what: string): boolean {
  if (existsSync(file)) return true;
  const message = `${what} not found at ${file}: clone the project beside shared/ (or set SAMPLES_DIR)`;
  if (process.env.CI) throw new Error(`${message}. Under CI these tests must run.`);
  console.warn(`skipping: ${message}`);
  return false;
}

export const haveSamples = sharedFileAvailable(SAMPLES_DIR + 'INDEX.tsv', "The original's recorded samples");
