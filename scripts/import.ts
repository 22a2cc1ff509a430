// npm run import -- --from https://site.example[/wp-json/tribe/events/v1] [--header 'Authorization: Basic …']
// npm run import -- --ical FILE_OR_URL [--since 2026-01-01] [--until 2027-12-31]
// npm run import -- --resume JOB_ID
// npm run import -- --list
// Copies a The Events Calendar site (through its public REST API), another Almanac, or an iCalendar
// feed into the calendar at DATABASE_URL, with a progress line; runs again update, never duplicate,
// and write nothing for records that did not change; from an Almanac they read only its change log
// since the last run. A stopped or failed import continues with --resume. Outbound requests follow
// the URL policy (TASK_ALLOWED_HOSTS).
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { deployMigrations } from '../src/db/migrations.js';
import { ImportError } from '../src/calendar/import/errors.js';
import {
  claimImportJob,
  createImportJob,
  listImportJobs,
  parseHeaders,
  runImportJob,
  type ImportJobView,
} from '../src/calendar/import/jobs.js';
import { formatProgress } from '../src/calendar/import/progress.js';

const usage = `usage: npm run import -- --from URL [--header 'Name: value']...
       npm run import -- --ical FILE_OR_URL [--since DATE] [--until DATE]
       npm run import -- --resume JOB_ID
       npm run import -- --list`;

let values;
try {
  ({ values } = parseArgs({
    options: {
      from: { type: 'string' },
      ical: { type: 'string' },
      header: { type: 'string', multiple: true, default: [] },
      since: { type: 'string' },
      until: { type: 'string' },
      resume: { type: 'string' },
      list: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if ([values.from, values.ical, values.resume, values.list || undefined].filter((v) => v !== undefined).length !== 1) {
  console.error(usage);
  process.exit(2);
}

const config = loadConfig();
await deployMigrations(config.databaseUrl);
const db = await openDatabase(config.databaseUrl);
// The command line acts as an administrator with no user: imported records have no author.
const viewer = { userId: 0, login: 'import', role: 'administrator' as const };
const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());

try {
  if (values.list) {
    const jobs = await listImportJobs(db.prisma, viewer, 100);
    if (jobs.length === 0) console.log('import: no import jobs yet');
    for (const job of jobs) console.log(formatProgress(job));
  } else {
    let job: ImportJobView;
    if (values.resume) job = await claimImportJob(db.prisma, viewer, Number(values.resume));
    else {
      const kind = values.from !== undefined ? 'tec' : 'ical';
      const window = { ...(values.since ? { start: values.since } : {}), ...(values.until ? { end: values.until } : {}) };
      const made = await createImportJob(
        db.prisma,
        viewer,
        { kind, source: (values.from ?? values.ical)!, headers: parseHeaders(values.header!), window },
        { allowFiles: true },
      );
      job = await claimImportJob(db.prisma, viewer, made.id);
    }
    const tty = process.stderr.isTTY;
    const started = Date.now();
    const startProcessed = job.processed;
    const show = (view: ImportJobView) => {
      const rate = ((view.processed - startProcessed) / Math.max((Date.now() - started) / 1000, 0.001)).toFixed(1);
      process.stderr.write(`${tty ? '\r\x1b[2K' : ''}${formatProgress(view)}, ${rate} records/s${tty ? '' : '\n'}`);
    };
    show(job);
    const done = await runImportJob({ prisma: db.prisma, config }, job.id, {
      allowFiles: true,
      onProgress: show,
      signal: controller.signal,
    });
    if (tty) process.stderr.write('\n');
    console.log(formatProgress(done));
    for (const warning of done.warnings) console.log(`  warning: ${warning}`);
    if (done.status !== 'completed') {
      console.error(`import ${done.id} ${done.status}: ${done.error}\ncontinue it with: npm run import -- --resume ${done.id}`);
      process.exitCode = 1;
    }
  }
} catch (error) {
  if (!(error instanceof ImportError)) throw error;
  console.error(`import: ${error.message}`);
  process.exitCode = 2;
} finally {
  await db.close();
}
