// Tasks: creation (stored with its first run before the caller gets the id), lists and stop.
// Every read and write is scoped to the owner: another user's task does not exist for the caller.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import type { Prisma } from '../db/client.js';
import { TaskError } from './errors.js';
import { taskSignals } from './events.js';
import { ending, NO_LLM_ERROR, UNFINISHED } from './statuses.js';
import { validateCreateTask, validateTaskName, type CreateTaskInput, type TaskOptions } from './validation.js';
import { ensureWebhookSecret } from './webhooks.js';
import { requireSecretKey, sealSecrets } from './secrets.js';
import { checkBudgetOptions, checkKeyTokens } from './budgets.js';
import { loadFiles, taskFileRows, validateFiles } from './files.js';
import { checkReplayOf } from './replay.js';
import { outboundPolicy } from '../net/url-policy.js';
import { scheduleColumns, validateSchedule, type ScheduleInput } from './cron.js';

export interface Owner {
  userId: number;
  /** The API key the caller used: it signs the task's webhook deliveries. */
  keyId?: number;
}

export const MAX_PAGE_SIZE = 30;

export function newRunData() {
  return { id: randomUUID(), shareToken: randomBytes(18).toString('base64url'), liveStatus: 'Waiting for a worker' };
}

export async function createTask(
  prisma: Prisma,
  config: Config,
  owner: Owner,
  input: CreateTaskInput & { schedule?: ScheduleInput | null },
) {
  const valid = validateCreateTask(input, config.tasks);
  checkBudgetOptions(config.tasks, valid.options);
  // A scheduled task starts no run now: its first is at its first due time (checked then).
  const schedule = input.schedule == null ? null : validateSchedule(input.schedule);
  if (!schedule) await checkRunLimits(prisma, config, owner);
  if (valid.secrets) requireSecretKey(config.secretKey, 'secrets', 'secrets');
  if (valid.options.profile) requireSecretKey(config.secretKey, 'profile', 'browser profiles');
  if (valid.webhookUrl && owner.keyId === undefined)
    throw new TaskError('invalid', 'webhookUrl needs a request made with an API key (it signs the deliveries)', 'webhookUrl');
  // Without a webhookUrl of its own, the task's events go to its key's default one (if the key has one).
  const webhookUrl = valid.webhookUrl ?? (owner.keyId === undefined ? undefined : await keyDefaultWebhookUrl(prisma, owner.keyId));
  if (webhookUrl) await ensureWebhookSecret(prisma, owner.keyId!);
  const replayOf = await checkReplayOf(prisma, owner, input.replayOf);
  if (replayOf) valid.options.replayOf = replayOf;
  const fileSpecs = validateFiles(input.files);
  // Fetched before anything is stored: a file that cannot be had leaves no task behind.
  const files = fileSpecs ? await loadFiles(fileSpecs, outboundPolicy(config), config.tasks) : [];
  const task = await prisma.task.create({
    data: {
      id: randomUUID(),
      ownerId: owner.userId,
      task: valid.task,
      name: valid.name ?? null,
      agent: valid.agent,
      tools: JSON.stringify(valid.tools),
      options: JSON.stringify(valid.options),
      webhookUrl: webhookUrl ?? null,
      webhookKeyId: webhookUrl ? owner.keyId : null,
      secrets: valid.secrets ? sealSecrets(valid.secrets, config.secretKey!) : null,
      keyId: owner.keyId ?? null,
      ...(schedule ? scheduleColumns(schedule) : { runs: { create: newRunRow(config) } }),
      ...(files.length ? { files: { create: taskFileRows(files) } } : {}),
    },
  });
  if (config.tasks.llmBaseUrl && !schedule) taskSignals.emit('queued');
  return task;
}

/**
 * The row of a new run of a task (its first, or a re-run): scheduled for a worker; without an LLM
 * it cannot start, so it is stored already ended, with the settings to set.
 */
export const newRunRow = (config: Config) =>
  config.tasks.llmBaseUrl ? newRunData() : { ...newRunData(), ...ending('failed', NO_LLM_ERROR) };

async function keyDefaultWebhookUrl(prisma: Prisma, keyId: number): Promise<string | undefined> {
  const key = await prisma.apiKey.findUnique({ where: { id: keyId }, select: { defaultWebhookUrl: true } });
  return key?.defaultWebhookUrl ?? undefined;
}

/**
 * Names the caller's task (trimmed, at most MAX_TASK_NAME characters); null or blank gives it back
 * its default name, its opening words.
 */
export async function renameTask(prisma: Prisma, owner: Owner, id: string, name: string | null | undefined) {
  const value = validateTaskName(name);
  await requireTask(prisma, owner, id);
  // Scoped to the owner in the write itself too.
  const { count } = await prisma.task.updateMany({ where: { id, ownerId: owner.userId }, data: { name: value } });
  if (count !== 1) throw new TaskError('not_found', `No task with id "${id}".`);
  taskSignals.emit('changed');
  return requireTask(prisma, owner, id);
}

/**
 * Runs the caller's task again, with the settings it was created with: a new run, scheduled now
 * (under the same run limits as a new task); a stopped task becomes active again.
 */
export async function rerunTask(prisma: Prisma, config: Config, owner: Owner, id: string) {
  const task = await requireTask(prisma, owner, id);
  await checkRunLimits(prisma, config, owner, task.keyId ?? undefined);
  const [run] = await prisma.$transaction([
    prisma.taskRun.create({ data: { ...newRunRow(config), taskId: id } }),
    prisma.task.update({ where: { id }, data: { status: 'active' } }),
  ]);
  if (config.tasks.llmBaseUrl) taskSignals.emit('queued');
  return run;
}

/**
 * A user's runs in progress and runs started in the last 24 hours stay under the configured limits
 * (0: none), and the tokens of the day of the API key the run counts toward (its task's) are not spent.
 */
export async function checkRunLimits(
  prisma: Pick<Prisma, 'taskRun' | 'keyTokenDay'>,
  config: Config,
  owner: Owner,
  keyId = owner.keyId,
): Promise<void> {
  const { maxActiveRuns, maxRunsPerDay } = config.tasks;
  if (maxActiveRuns > 0) {
    const active = await prisma.taskRun.count({ where: { status: { in: UNFINISHED }, task: { ownerId: owner.userId } } });
    if (active >= maxActiveRuns)
      throw new TaskError(
        'limit',
        `${active} runs are scheduled or running for this user, the most allowed at once (TASK_MAX_ACTIVE_RUNS=${maxActiveRuns}); wait for one to end or stop one`,
      );
  }
  if (maxRunsPerDay > 0) {
    const since = new Date(Date.now() - 24 * 3600_000);
    const started = await prisma.taskRun.count({ where: { createdAt: { gte: since }, task: { ownerId: owner.userId } } });
    if (started >= maxRunsPerDay)
      throw new TaskError(
        'limit',
        `${started} runs were started for this user in the last 24 hours, the most allowed (TASK_MAX_RUNS_PER_DAY=${maxRunsPerDay})`,
      );
  }
  await checkKeyTokens(prisma, config.tasks, keyId);
}

export function taskOptions(task: { options: string }): TaskOptions {
  return JSON.parse(task.options) as TaskOptions;
}

/** The one rule of who sees a task: its owner, and nobody else. */
export const ownedBy = (owner: Owner) => ({ ownerId: owner.userId });

export function findTask(prisma: Prisma, owner: Owner, id: string) {
  return prisma.task.findFirst({ where: { id, ...ownedBy(owner) } });
}

/** Those of the tasks `ids` that belong to the owner (one statement). */
export function findTasks(prisma: Prisma, owner: Owner, ids: string[]) {
  return prisma.task.findMany({ where: { id: { in: ids }, ...ownedBy(owner) } });
}

export async function requireTask(prisma: Prisma, owner: Owner, id: string) {
  const task = await findTask(prisma, owner, id);
  if (!task) throw new TaskError('not_found', `No task with id "${id}".`);
  return task;
}

export async function listTasks(prisma: Prisma, owner: Owner, page: number, limit: number) {
  const where = { ownerId: owner.userId };
  const [items, total] = await Promise.all([
    prisma.task.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: (page - 1) * limit, take: limit }),
    prisma.task.count({ where }),
  ]);
  return { items, total };
}

/** Marks the task inactive and ends its unfinished runs as stopped. */
export async function stopTask(prisma: Prisma, owner: Owner, id: string) {
  await requireTask(prisma, owner, id);
  const open = await prisma.taskRun.findMany({ where: { taskId: id, status: { in: UNFINISHED } }, select: { id: true } });
  const [task] = await prisma.$transaction([
    prisma.task.update({ where: { id }, data: { status: 'inactive' } }),
    prisma.taskRun.updateMany({ where: { taskId: id, status: { in: UNFINISHED } }, data: ending('stopped', 'stopped') }),
  ]);
  for (const run of open) taskSignals.emit('ended', run.id);
  return task;
}

export function checkPage(page: number, limit: number): void {
  if (!Number.isInteger(page) || page < 1) throw new TaskError('invalid', 'page must be an integer of at least 1', 'page');
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new TaskError('invalid', `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`, 'limit');
  }
}
