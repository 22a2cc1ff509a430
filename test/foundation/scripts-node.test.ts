// Every npm script runs on the project's Node (the `node` devDependency, Node 24, which npm finds
// first on PATH in node_modules/.bin), even when the machine's own Node is older: CI's machines have
// Node 20, on which better-sqlite3 13 crashes the process. npm runs here on the machine's own Node,
// as it does for a user.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, createTestDatabase } from '../support/databases.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const scripts: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;

/** PATH as the user's shell has it: without the node_modules/.bin folders npm put first for vitest. */
const machinePath = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((dir) => !dir.includes('node_modules') && !dir.includes(join('.cache', 'almanac')))
  .join(delimiter);

const scratch = mkdtempSync(join(tmpdir(), 'almanac-scripts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function machineNode(): Promise<string> {
  const { stdout } = await run('node', ['--version'], { env: { ...process.env, PATH: machinePath } });
  return stdout.trim();
}

describe("npm scripts on the project's Node", () => {
  it("every script's Node processes are Node 24 or later, whatever the machine's own Node", async () => {
    console.log(`machine's own node: ${await machineNode()}`);
    // A preload that records the Node each process of a script runs on, then ends it at once, so
    // that no script does its work (tests, benchmarks, builds). npm's node-options setting reaches
    // the scripts' processes only, never npm itself.
    const probe = join(scratch, 'probe.cjs');
    const records = join(scratch, 'records');
    mkdirSync(records);
    writeFileSync(
      probe,
      `require('fs').writeFileSync(require('path').join(${JSON.stringify(records)}, process.env.ALMANAC_PROBE_SCRIPT + '.' + process.pid), process.versions.node + ' ' + process.argv.slice(1).join(' ') + '\\n');
process.exit(0);
`,
    );
    // faketime is a Debian package that `pretest:year-ahead` installs; it runs no JavaScript itself.
    const shims = join(scratch, 'bin');
    mkdirSync(shims);
    const haveFaketime = machinePath.split(delimiter).some((dir) => existsSync(join(dir, 'faketime')));
    if (!haveFaketime) {
      writeFileSync(join(shims, 'faketime'), '#!/bin/sh\nshift 2\nexec "$@"\n');
      chmodSync(join(shims, 'faketime'), 0o755);
    }
    const names = Object.keys(scripts).filter((name) => !/^(pre|post)/.test(name) || !(name.replace(/^(pre|post)/, '') in scripts));
    expect(names.length).toBeGreaterThan(15);
    const failures: string[] = [];
    for (const name of names) {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PATH: `${machinePath}${delimiter}${shims}`,
        ALMANAC_PROBE_SCRIPT: name.replace(/:/g, '_'),
      };
      delete env.NODE_OPTIONS;
      try {
        await run('npm', ['run', '--silent', `--node-options=--require=${probe}`, name], { cwd: root, env });
      } catch (error) {
        failures.push(`${name}: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    expect(failures).toEqual([]);
    const seen = new Map<string, string[]>();
    for (const file of readdirSync(records)) {
      const script = file.slice(0, file.lastIndexOf('.'));
      seen.set(script, [...(seen.get(script) ?? []), readFileSync(join(records, file), 'utf8').trim()]);
    }
    for (const name of names) {
      const processes = seen.get(name.replace(/:/g, '_')) ?? [];
      // Every script runs JavaScript (node, tsx, vitest, tsc, eslint, prettier, npm itself).
      expect(processes, `${name} started no Node process`).not.toEqual([]);
      for (const line of processes) expect(Number(line.split('.')[0]), `${name}: ${line}`).toBeGreaterThanOrEqual(24);
    }
  });

  describe.each(DATABASE_KINDS)("a new user's first commands, on %s", (kind) => {
    it('seed, user:create, keys and import run to exit 0 and do what they say', async () => {
      const database = await createTestDatabase(kind);
      try {
        const env: NodeJS.ProcessEnv = { ...process.env, PATH: machinePath, DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
        delete env.NODE_OPTIONS;
        const npm = (...args: string[]) => run('npm', ['run', '--silent', ...args], { cwd: root, env });
        expect((await npm('seed', '--', '--events', '100')).stdout).toMatch(/seed: 100 events, 25 venues/);
        expect((await npm('user:create', '--', '--login', 'editor1', '--role', 'editor')).stdout).toMatch(
          /user editor1 \(id \d+, editor\)\nAPI key \(shown once\): alm_/,
        );
        expect((await npm('keys', '--', 'list')).stdout).toMatch(/\teditor1\talm_/);
        expect((await npm('import', '--', '--list')).stdout).toMatch(/no import jobs yet/);
      } finally {
        await database.drop();
      }
    });
  });
});
