// A PostgreSQL server of a test's own, so that the test may restart or stop it with no other test
// seeing it: `initdb` in a scratch folder, started with `pg_ctl` on a free port (TCP on 127.0.0.1,
// its socket in the folder), with a password (so that a test can look for it in logs). initdb
// refuses to run as root: when the tests run as root (CI), every PostgreSQL command runs as the
// `postgres` OS user (`runuser`), and the folder is theirs. Anything that fails here throws: a test
// that cannot set up its server fails, it is never skipped. The server is stopped, by pg_ctl or
// else by its postmaster's pid, and the folder removed, at the end, and when the test process exits.
import { execFile as execFileCallback, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../test/support/ports.js';

const execFile = promisify(execFileCallback);

export interface OwnPostgres {
  port: number;
  /** The password of the `postgres` user. */
  password: string;
  /** The URL of `database` on this server. */
  url(database: string): string;
  createDatabase(name: string): Promise<string>;
  /** `pg_ctl restart -m fast`: every connection is closed, and new ones refused until it is back. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server (by pg_ctl, else by its pid) and removes its folder. */
  destroy(): Promise<void>;
}

/** The folder of PostgreSQL's server programs: PG_BINDIR, pg_config's, or Debian's newest. */
function binaries(): string {
  const candidates: string[] = [];
  if (process.env.PG_BINDIR) candidates.push(process.env.PG_BINDIR);
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // no pg_config on the PATH
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian))
    for (const version of readdirSync(debian).sort((a, b) => Number(b) - Number(a))) candidates.push(join(debian, version, 'bin'));
  const found = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (!found)
    throw new Error(`no PostgreSQL server programs (initdb, pg_ctl) in ${candidates.join(', ') || 'any known place'}; set PG_BINDIR`);
  return found;
}

const asRoot = process.getuid?.() === 0;

/** The uid and gid of the `postgres` OS user. */
function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('the tests run as root, and there is no postgres OS user to run initdb as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

const started = new Set<{ dataDir: string; folder: string }>();

/** pid of the postmaster of `dataDir`, from its postmaster.pid; undefined when it has none. */
function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function killPostmaster(dataDir: string): void {
  const pid = postmasterPid(dataDir);
  if (!pid) return;
  try {
    process.kill(pid, 'SIGQUIT'); // PostgreSQL's immediate shutdown
  } catch {
    // already gone
  }
}

// Whatever ends this test process, no server of ours outlives it, nor its folder.
process.on('exit', () => {
  for (const { dataDir, folder } of started) {
    killPostmaster(dataDir);
    rmSync(folder, { recursive: true, force: true });
  }
});

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = binaries();
  // As root, in /tmp: the postgres user may not reach a TMPDIR inside root's home.
  const folder = mkdtempSync(join(asRoot ? '/tmp' : tmpdir(), 'almanac-pg-'));
  const dataDir = join(folder, 'data');
  const entry = { dataDir, folder };
  const password = randomBytes(12).toString('hex');
  const passwordFile = join(folder, 'password');
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (asRoot) {
    const { uid, gid } = postgresUser();
    chownSync(folder, uid, gid);
    chownSync(passwordFile, uid, gid);
  }
  chmodSync(folder, 0o700);
  /** Runs one of PostgreSQL's programs, as the postgres user when this process is root. */
  const run = async (program: string, args: string[]) => {
    const [command, commandArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
    try {
      await execFile(command, commandArgs, { cwd: folder, timeout: 120_000 });
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      throw new Error(`${program} ${args.join(' ')} failed: ${(error as Error).message}\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
    }
  };
  let port = 0;
  const serverOptions = () => `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1`;
  const pgCtl = (...args: string[]) => run('pg_ctl', ['-D', dataDir, '-l', join(folder, 'server.log'), '-w', '-t', '60', ...args]);

  try {
    await run('initdb', [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '-A',
      'scram-sha-256',
      `--pwfile=${passwordFile}`,
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    port = await freePort();
    started.add(entry);
    await pgCtl('-o', serverOptions(), 'start');
  } catch (error) {
    const log = existsSync(join(folder, 'server.log')) ? readFileSync(join(folder, 'server.log'), 'utf8') : '';
    killPostmaster(dataDir);
    rmSync(folder, { recursive: true, force: true });
    started.delete(entry);
    throw new Error(`could not set up a PostgreSQL server of the test's own: ${(error as Error).message}\n${log}`, { cause: error });
  }

  const url = (database: string) => `postgresql://postgres:${password}@127.0.0.1:${port}/${database}`;
  return {
    port,
    password,
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    restart: () => pgCtl('-m', 'fast', '-o', serverOptions(), 'restart'),
    stop: () => pgCtl('-m', 'fast', 'stop'),
    start: () => pgCtl('-o', serverOptions(), 'start'),
    async destroy() {
      try {
        if (postmasterPid(dataDir)) await pgCtl('-m', 'immediate', 'stop');
      } catch {
        killPostmaster(dataDir);
      }
      rmSync(folder, { recursive: true, force: true });
      started.delete(entry);
    },
  };
}
