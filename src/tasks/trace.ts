// A run's Playwright trace: Playwright's own recording of the browser context (each action, a DOM
// snapshot before and after it, screenshots, every request and response, the console), the zip its
// trace viewer opens. Kept per run (its latest browser session) when at most TASK_MAX_TRACE_BYTES,
// deleted with the run. Tasks with secrets get none: a trace holds typed values, DOM input values
// and request bodies in clear, and it cannot be masked the way the steps are.
import { randomUUID } from 'node:crypto';
import { readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import type { Prisma } from '../db/client.js';

/** Why a run has no trace, in the words the API answers with. */
export const NO_TRACE_WITH_SECRETS = 'Runs of tasks with secrets keep no trace: a trace would hold the typed values in clear.';

export class RunTrace {
  private stopped: Promise<Buffer | null> | undefined;

  private constructor(
    private context: BrowserContext,
    private maxBytes: number,
  ) {}

  /** Starts tracing the context; null when traces are off (TASK_MAX_TRACE_BYTES=0) or the task has secrets. */
  static async start(context: BrowserContext, maxBytes: number, hasSecrets: boolean): Promise<RunTrace | null> {
    if (maxBytes <= 0 || hasSecrets) return null;
    await context.tracing.start({ screenshots: true, snapshots: true, sources: false });
    return new RunTrace(context, maxBytes);
  }

  /**
   * Stops tracing (once, whoever asks first: the run's end, or a stop or timeout about to close the
   * context) and reads the zip; null when it is over the limit or the context was already gone.
   */
  stop(): Promise<Buffer | null> {
    this.stopped ??= (async () => {
      const path = join(tmpdir(), `almanac-trace-${randomUUID()}.zip`);
      try {
        await this.context.tracing.stop({ path });
        if ((await stat(path)).size > this.maxBytes) return null;
        return await readFile(path);
      } catch {
        return null;
      } finally {
        await rm(path, { force: true });
      }
    })();
    return this.stopped;
  }
}

/** Keeps the trace with the run (the latest session's replaces an earlier one's). */
export async function saveTrace(prisma: Prisma, runId: string, zip: Buffer): Promise<void> {
  const data = { size: zip.length, content: new Uint8Array(zip), createdAt: new Date() };
  await prisma.taskTrace.upsert({ where: { runId }, create: { runId, ...data }, update: data });
}

export async function loadTrace(prisma: Prisma, runId: string): Promise<Buffer | null> {
  const trace = await prisma.taskTrace.findUnique({ where: { runId }, select: { content: true } });
  return trace ? Buffer.from(trace.content) : null;
}

export async function hasTrace(prisma: Prisma, runId: string): Promise<boolean> {
  return (await prisma.taskTrace.count({ where: { runId } })) > 0;
}

export function traceUrl(siteUrl: string, run: { id: string; taskId: string; shareToken: string }): string {
  return `${siteUrl}/api/v1/task/${encodeURIComponent(run.taskId)}/run/trace?runId=${encodeURIComponent(run.id)}&token=${run.shareToken}`;
}
