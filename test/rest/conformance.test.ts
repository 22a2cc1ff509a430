// The recorded conversation with The Events Calendar 6.17.2 (../shared/conformance), replayed by its
// own script against Almanac as `npm start` runs it: the figures may only go up. Raise EXACT when a
// change makes more answers exact.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sharedFileAvailable } from '../support/shared.js';

const CHECK = fileURLToPath(new URL('../../../shared/conformance/check.sh', import.meta.url));
/** Exact answers reached so far (of 340 compared steps). */
const EXACT = 338;

describe.runIf(sharedFileAvailable(CHECK, 'The conformance replay'))('the recorded conversation with the original', () => {
  it(`answers at least ${EXACT} steps exactly, every status as the original, every deviation as documented`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'almanac-conformance-test-'));
    try {
      const report = join(dir, 'report.json');
      const { stdout } = await promisify(execFile)('bash', [CHECK, '--json', report], {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        maxBuffer: 64 * 1024 * 1024,
      });
      const { tally } = JSON.parse(readFileSync(report, 'utf8'));
      expect(tally.total, stdout.split('\n').slice(-3).join('\n')).toBeGreaterThanOrEqual(340);
      expect(tally.status).toBe(tally.total);
      expect(tally.exact).toBeGreaterThanOrEqual(EXACT);
      expect(tally.devAsDocumented).toBe(tally.devExpect);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
