// Webhooks: a task's webhookUrl receives a signed POST when one of its runs waits for a caller
// tool's input (tool_call), completes, or ends in error. Events are found in the database (runs that
// ended, tool calls made — by any process) and turned into deliveries in the same transaction that
// marks them, so each becomes exactly one delivery; deliveries are retried with backoff until the
// receiver answers 2xx (at least once), and survive restarts. Every POST obeys the URL policy.
//
// Signed (src/net/signed-post.ts) with the webhook secret of the API key that created the task.
import { everyInterval, type Rounds } from '../rounds.js';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import type { Prisma } from '../db/client.js';
import { afterAttempt, postSigned } from '../net/signed-post.js';
import type { Logger } from '../http/logger.js';

const ENDED = ['completed', 'error'];
/** A claimed delivery is retried after this long if its process died mid-POST. */
const CLAIM_MS = 60_000;
const BATCH = 50;

type Tx = Parameters<Parameters<Prisma['$transaction']>[0]>[0];

export async function ensureWebhookSecret(prisma: Prisma, keyId: number): Promise<string> {
  await prisma.apiKey.updateMany({
    where: { id: keyId, webhookSecret: '' },
    data: { webhookSecret: `whsec_${randomBytes(24).toString('base64url')}` },
  });
  return (await prisma.apiKey.findUniqueOrThrow({ where: { id: keyId }, select: { webhookSecret: true } })).webhookSecret;
}

/** Turns runs that ended and tool calls that wait into deliveries; marks those of tasks without a webhook. */
export async function collectEvents(prisma: Prisma, now = new Date()): Promise<number> {
  // Reads first: an idle round takes no write lock (SQLite's UPDATE would, even matching nothing).
  const runs = await prisma.taskRun.findMany({ where: { notifiedAt: null, status: { in: ENDED } }, include: { task: true }, take: BATCH });
  const calls = await prisma.toolCall.findMany({ where: { notifiedAt: null }, include: { run: { include: { task: true } } }, take: BATCH });
  const quiet = (list: { id: string }[]) => list.map((item) => item.id);
  const runsWithout = quiet(runs.filter((run) => !run.task.webhookUrl));
  const callsWithout = quiet(calls.filter((call) => !call.run.task.webhookUrl));
  if (runsWithout.length)
    await prisma.taskRun.updateMany({ where: { id: { in: runsWithout }, notifiedAt: null }, data: { notifiedAt: now } });
  if (callsWithout.length)
    await prisma.toolCall.updateMany({ where: { id: { in: callsWithout }, notifiedAt: null }, data: { notifiedAt: now } });
  let made = 0;
  for (const run of runs.filter((r) => r.task.webhookUrl)) {
    const body = {
      event: run.status === 'completed' ? 'completed' : 'error',
      taskId: run.taskId,
      runId: run.id,
      status: run.status,
      detailedStatus: run.detailedStatus,
      error: run.error,
      output: run.output === null ? null : safeJson(run.output),
      at: now.toISOString(),
    };
    made += await deliverOnce(
      prisma,
      (tx) => tx.taskRun.updateMany({ where: { id: run.id, notifiedAt: null }, data: { notifiedAt: now } }),
      run.task,
      run.id,
      body,
    );
  }
  for (const call of calls.filter((c) => c.run.task.webhookUrl)) {
    const body = {
      event: 'tool_call',
      taskId: call.run.taskId,
      runId: call.runId,
      status: 'running',
      detailedStatus: 'tool_call',
      toolCall: { id: call.id, name: call.name, arguments: safeJson(call.arguments) },
      at: now.toISOString(),
    };
    made += await deliverOnce(
      prisma,
      (tx) => tx.toolCall.updateMany({ where: { id: call.id, notifiedAt: null }, data: { notifiedAt: now } }),
      call.run.task,
      call.runId,
      body,
    );
  }
  return made;
}

async function deliverOnce(
  prisma: Prisma,
  mark: (tx: Tx) => Promise<{ count: number }>,
  task: { id: string; webhookUrl: string | null; webhookKeyId: number | null },
  runId: string,
  body: Record<string, unknown>,
): Promise<number> {
  if (!task.webhookUrl) return 0;
  return prisma.$transaction(async (tx) => {
    // Marked and queued together: another process that saw the same event marks nothing and queues nothing.
    if ((await mark(tx)).count !== 1) return 0;
    await tx.webhookDelivery.create({
      data: {
        id: randomUUID(),
        taskId: task.id,
        runId,
        event: String(body.event),
        url: task.webhookUrl!,
        keyId: task.webhookKeyId,
        body: JSON.stringify(body),
      },
    });
    return 1;
  });
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** POSTs the deliveries that are due; returns how many were attempted. */
export async function deliverDue(prisma: Prisma, config: Config, now = new Date()): Promise<number> {
  const due = await prisma.webhookDelivery.findMany({
    where: { status: 'pending', nextAttemptAt: { lte: now } },
    orderBy: { nextAttemptAt: 'asc' },
    take: BATCH,
  });
  let attempted = 0;
  for (const delivery of due) {
    const claimed = await prisma.webhookDelivery.updateMany({
      where: { id: delivery.id, status: 'pending', nextAttemptAt: delivery.nextAttemptAt },
      data: { nextAttemptAt: new Date(now.getTime() + CLAIM_MS) },
    });
    if (claimed.count !== 1) continue;
    attempted++;
    const secret = delivery.keyId
      ? ((await prisma.apiKey.findUnique({ where: { id: delivery.keyId }, select: { webhookSecret: true } }))?.webhookSecret ?? '')
      : '';
    const outcome = await postSigned(config, { url: delivery.url, body: delivery.body, event: delivery.event, id: delivery.id, secret });
    await prisma.webhookDelivery.update({ where: { id: delivery.id }, data: afterAttempt(delivery.attempts + 1, outcome) });
  }
  return attempted;
}

/** The loop every server process runs: collect events, deliver what is due. */
export function startWebhookDeliveries(deps: { prisma: Prisma; config: Config; logger: Logger }): Rounds {
  return everyInterval(
    Math.min(deps.config.tasks.pollMs, 1000),
    async () => {
      await collectEvents(deps.prisma);
      await deliverDue(deps.prisma, deps.config);
    },
    (error) => deps.logger.warn({ err: error }, 'webhook deliveries: a round failed; retrying'),
  );
}
