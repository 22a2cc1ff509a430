// Brings the Debian packages a test command needs: `node scripts/system-packages.mjs chromium faketime`.
// Each missing one is installed with apt-get when this runs as root; otherwise it stops and says what
// to install. The browser tests launch /usr/bin/chromium; `npm run test:year-ahead` runs under faketime;
// the feed tests read feeds with Python's icalendar too (a second, independent parser).
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

// Debian package → the file the tests use from it (a program, or a Python module for /usr/bin/python3).
const programs = {
  chromium: '/usr/bin/chromium',
  faketime: '/usr/bin/faketime',
  'python3-icalendar': '/usr/lib/python3/dist-packages/icalendar/__init__.py',
};

const wanted = process.argv.slice(2);
for (const name of wanted) {
  if (!(name in programs)) {
    console.error(`system-packages: unknown package ${name} (known: ${Object.keys(programs).join(', ')})`);
    process.exit(2);
  }
}

const runnable = (path) => {
  try {
    accessSync(path, path.endsWith('.py') ? constants.R_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const missing = wanted.filter((name) => !runnable(programs[name]));
if (missing.length === 0) process.exit(0);

const list = missing.join(' ');
const what = missing.map((name) => programs[name]).join(' and ');
const aptGet = '/usr/bin/apt-get';
if (process.getuid?.() !== 0 || !runnable(aptGet)) {
  console.error(
    `The tests run ${what}, which this machine lacks (Debian's ${list.replace(' ', ' and ')}).\n` +
      `Install ${missing.length > 1 ? 'them' : 'it'} as root, then run the tests again:  apt-get update && apt-get install -y ${list}`,
  );
  process.exit(1);
}

console.error(`system-packages: the tests run ${what}; installing Debian's ${list} with apt-get`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['update', '-qq'],
  ['install', '-y', '-qq', ...missing],
]) {
  const run = spawnSync(aptGet, args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (run.status !== 0) {
    console.error(`system-packages: apt-get ${args[0]} failed; install by hand:  apt-get install -y ${list}`);
    process.exit(1);
  }
}
const still = missing.filter((name) => !runnable(programs[name]));
if (still.length > 0) {
  console.error(`system-packages: ${still.map((name) => programs[name]).join(', ')} still missing after apt-get install`);
  process.exit(1);
}
