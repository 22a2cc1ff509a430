// Calendar sources on a schedule, run by every server process in rounds. A due source is claimed
// with a compare-and-set on its row (jobId from null to a new import job, in one transaction with
// the job), so with several processes on one database each run happens once. A run is an import
// job: a process that stops mid-run leaves the job interrupted (or, killed, with an old heartbeat),
// and any process's next round claims the job the way resumeImport does and finishes it.
import type { Config } from '../../config.js';
import type { Prisma } from '../../db/client.js';
import type { Logger } from '../../http/logger.js';
import { everyInterval, type Rounds } from '../../rounds.js';
import { notifySourceFailing } from '../webhooks.js';
import { ImportError } from './errors.js';
import { claimImportJob, jobView, runImportJob, type ImportJobView } from './jobs.js';
import { FAILING_AFTER, nextDelayMs, sourceSignals } from './sources.js';

/** Due sources one process takes in one round at most (the others are left to the next round, or to other processes). */
const DUE_PER_ROUND = 5;

interface Deps {
  prisma: Prisma;
  config: Config;
  logger: Logger;
}

const systemViewer = (userId: number) => ({ userId, login: 'import', role: 'administrator' as const });

/** Claims a due source: a new running job, and the source's jobId set to it, or nothing when another process was first. */
async function claimDue(prisma: Prisma, source: { id: number; kind: string; address: string; userId: number; nextRunAt: Date | null }) {
  try {
    return await prisma.$transaction(async (tx) => {
      const job = await tx.importJob.create({
        data: {
          kind: source.kind,
          source: source.address,
          userId: source.userId,
          status: 'running',
          heartbeatAt: new Date(),
          options: JSON.stringify({ sourceId: source.id }),
        },
      });
      const won = await tx.calendarSource.updateMany({
        where: { id: source.id, jobId: null, nextRunAt: source.nextRunAt },
        data: { jobId: job.id },
      });
      if (won.count !== 1) throw new ClaimLost();
      return job.id;
    });
  } catch (error) {
    if (error instanceof ClaimLost) return null;
    throw error;
  }
}

class ClaimLost extends Error {}

/**
 * Records a finished run on its source: the outcome, counts and warnings, the failures in a row
 * and when it runs next (backed off while it fails). The third failure in a row is reported once.
 */
export async function finishSourceRun(deps: Deps, job: ImportJobView): Promise<void> {
  const { prisma } = deps;
  const source = await prisma.calendarSource.findFirst({ where: { jobId: job.id } });
  if (!source) return;
  const failed = job.status !== 'completed';
  const failures = failed ? source.failures + 1 : 0;
  const at = job.finishedAt ?? new Date();
  const next = source.refreshSeconds > 0 && !source.paused ? new Date(at.getTime() + nextDelayMs(source.refreshSeconds, failures)) : null;
  const { count } = await prisma.calendarSource.updateMany({
    where: { id: source.id, jobId: job.id },
    data: {
      jobId: null,
      lastJobId: job.id,
      lastRunAt: at,
      lastOutcome: failed ? 'failed' : 'completed',
      lastCounts: JSON.stringify(job.counts),
      lastWarnings: JSON.stringify(job.warnings),
      lastError: job.error,
      failures,
      nextRunAt: next,
    },
  });
  if (count === 1 && failures === FAILING_AFTER) {
    await notifySourceFailing(prisma, {
      id: source.id,
      name: source.name,
      kind: source.kind,
      address: source.address,
      failures,
      error: job.error,
      nextRunAt: next?.toISOString() ?? null,
    });
    deps.logger.warn({ source: source.id, error: job.error }, 'calendar source failing');
  }
}

async function runAndFinish(deps: Deps, jobId: number, signal: AbortSignal): Promise<void> {
  const job = await runImportJob(deps, jobId, { signal });
  // Interrupted (this process stopping): the source keeps its job, which another round resumes.
  if (job.status !== 'interrupted') await finishSourceRun(deps, job);
}

/** Runs whose process stopped: resumed here (claimed as resumeImport does), or recorded when they had ended. */
async function resumeStopped(deps: Deps, signal: AbortSignal): Promise<void> {
  const { prisma } = deps;
  const running = await prisma.calendarSource.findMany({ where: { jobId: { not: null } }, select: { jobId: true, userId: true } });
  for (const { jobId, userId } of running) {
    if (signal.aborted) return;
    const row = await prisma.importJob.findUnique({ where: { id: jobId! } });
    if (!row) continue;
    const job = jobView(row);
    // It ended, but its process stopped before recording it on the source.
    if (job.status === 'completed' || job.status === 'failed') {
      await finishSourceRun(deps, job);
      continue;
    }
    if (job.status !== 'interrupted') continue;
    try {
      await claimImportJob(prisma, systemViewer(userId), job.id);
    } catch (error) {
      if (error instanceof ImportError && error.code === 'conflict') continue; // another process took it
      throw error;
    }
    await runAndFinish(deps, job.id, signal);
  }
}

/** Starts the sources that are due, one after another. */
async function runDue(deps: Deps, signal: AbortSignal): Promise<void> {
  const { prisma } = deps;
  const due = await prisma.calendarSource.findMany({
    where: { jobId: null, nextRunAt: { lte: new Date() } },
    orderBy: { nextRunAt: 'asc' },
    take: DUE_PER_ROUND,
  });
  for (const source of due) {
    if (signal.aborted) return;
    const jobId = await claimDue(prisma, source);
    if (jobId !== null) await runAndFinish(deps, jobId, signal);
  }
}

/** The schedule every server process runs: rounds every SOURCE_CHECK_SECONDS, and at once when a source is saved or asked to run here. */
export function startSourceSchedule(deps: Deps): Rounds {
  const controller = new AbortController();
  const round = async () => {
    await resumeStopped(deps, controller.signal);
    await runDue(deps, controller.signal);
  };
  // Rounds and looks run one at a time, never side by side in one process.
  let current: Promise<unknown> = Promise.resolve();
  const serially = (work: () => Promise<void>) => {
    const run = current.then(work);
    current = run.catch(() => undefined);
    return run;
  };
  const failed = (error: unknown) => deps.logger.warn({ err: error }, 'calendar sources: a round failed; retrying');
  // A save looks at once; several saves before the look starts make one look.
  let asked = false;
  const look = () => {
    if (asked || controller.signal.aborted) return;
    asked = true;
    serially(async () => {
      asked = false;
      if (!controller.signal.aborted) await round();
    }).catch((error: unknown) => !controller.signal.aborted && failed(error));
  };
  sourceSignals.on('due', look);
  const rounds = everyInterval(deps.config.sources.checkSeconds * 1000, () => serially(round), failed, { immediately: true });
  return {
    firstRound: rounds.firstRound,
    async stop() {
      sourceSignals.off('due', look);
      controller.abort();
      await rounds.stop();
      await current;
    },
  };
}
