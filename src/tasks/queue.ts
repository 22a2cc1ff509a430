// The run queue, shared by every process on the database. Claiming is one conditional UPDATE
// (`… WHERE id = ? AND detailedStatus = 'queued' AND workerId IS NULL`): of several workers racing for
// a run exactly one changes the row, on SQLite and PostgreSQL alike. Runs whose worker stopped
// heartbeating are taken back (resumed, or ended `interrupted` after too many resumes), and tool
// calls nobody answered in time end their run.
import type { Prisma } from '../db/client.js';
import { ending } from './statuses.js';

export interface QueueSettings {
  staleAfterMs: number;
  maxResumes: number;
  toolInputTimeoutMs: number;
}

/** Claims the oldest claimable run for `workerId`, or returns null when there is none. */
export async function claimNextRun(prisma: Prisma, workerId: string) {
  const candidates = await prisma.taskRun.findMany({
    where: { detailedStatus: 'queued', workerId: null, status: { in: ['scheduled', 'running'] } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, status: true },
    take: 8,
  });
  for (const candidate of candidates) {
    const now = new Date();
    const { count } = await prisma.taskRun.updateMany({
      where: { id: candidate.id, detailedStatus: 'queued', workerId: null, status: candidate.status },
      data: {
        workerId,
        status: 'running',
        detailedStatus: 'starting_browser',
        liveStatus: 'Starting the browser',
        heartbeatAt: now,
        attempts: { increment: 1 },
        ...(candidate.status === 'scheduled' ? { startedAt: now } : {}),
      },
    });
    if (count === 1) return prisma.taskRun.findUniqueOrThrow({ where: { id: candidate.id }, include: { task: true } });
  }
  return null;
}

export type ClaimedRun = NonNullable<Awaited<ReturnType<typeof claimNextRun>>>;

/** Takes back runs whose worker stopped heartbeating. Returns how many were taken back. */
export async function recoverStaleRuns(prisma: Prisma, settings: QueueSettings): Promise<number> {
  const cutoff = new Date(Date.now() - settings.staleAfterMs);
  const stale = await prisma.taskRun.findMany({
    where: { status: 'running', workerId: { not: null }, heartbeatAt: { lt: cutoff } },
    select: { id: true, workerId: true, recoveries: true },
  });
  let taken = 0;
  for (const run of stale) {
    // Conditional on the same worker and stale heartbeat: a worker that was only slow keeps its run.
    const where = { id: run.id, workerId: run.workerId, status: 'running', heartbeatAt: { lt: cutoff } };
    const data =
      run.recoveries < settings.maxResumes
        ? {
            workerId: null,
            heartbeatAt: null,
            detailedStatus: 'queued',
            liveStatus: 'Resuming: its worker stopped',
            recoveries: { increment: 1 },
          }
        : ending(
            'interrupted',
            `interrupted: the worker running it stopped, and it was already resumed ${run.recoveries} time(s) (TASK_MAX_RESUMES)`,
          );
    taken += (await prisma.taskRun.updateMany({ where, data })).count;
  }
  return taken;
}

/** Ends runs that waited for tool input longer than allowed. */
export async function expireToolWaits(prisma: Prisma, settings: QueueSettings): Promise<number> {
  const cutoff = new Date(Date.now() - settings.toolInputTimeoutMs);
  const waiting = await prisma.toolCall.findMany({
    where: { input: null, createdAt: { lt: cutoff }, run: { status: 'running', detailedStatus: 'tool_call' } },
    select: { runId: true, name: true },
  });
  let ended = 0;
  for (const call of waiting) {
    const seconds = Math.round(settings.toolInputTimeoutMs / 1000);
    ended += (
      await prisma.taskRun.updateMany({
        where: { id: call.runId, status: 'running', detailedStatus: 'tool_call' },
        data: ending(
          'timed_out',
          `timed out waiting for input to the tool "${call.name}" (no answer within ${seconds} s, TASK_TOOL_INPUT_TIMEOUT_MS)`,
        ),
      })
    ).count;
  }
  return ended;
}
