// A worker's hold on the run it executes. Every write is conditional on the run still being this
// worker's and still running: once the run was stopped, timed out elsewhere or taken back, the
// write changes nothing and the worker learns it must let go (LeaseLost).
import type { Prisma } from '../db/client.js';
import { ending, type DetailedStatus } from './statuses.js';

export class LeaseLost extends Error {
  constructor(runId: string) {
    super(`run ${runId} is no longer held by this worker`);
  }
}

export interface StepRecord {
  index: number;
  url: string;
  title: string;
  action: string;
  arguments: Record<string, unknown>;
  result: string;
  /** The model's text before its call, bounded. */
  reasoning: string;
  tokens: number;
  /** USD of those tokens; null when the model has no price. */
  costUsd: number | null;
  /** JSON of the ElementLocator of the element acted on (locator.ts); absent when none. */
  locator?: string;
  /** Replayed from the task's replayOf run, without the LLM. */
  replayed?: boolean;
  screenshot?: Uint8Array;
}

/** Every string of a row to write, masked (the run's secrets become their placeholders). */
function masked<T extends Record<string, unknown>>(data: T, mask: (text: string) => string): T {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? mask(v) : v])) as T;
}

/** The UTC day a key's token budget counts in, YYYY-MM-DD. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** One statement on both engines, so concurrent runs of one key add up rather than race on the row. */
function addKeyTokens(tx: Pick<Prisma, '$executeRaw'>, keyId: number, day: string, tokens: number) {
  return tx.$executeRaw`INSERT INTO "KeyTokenDay" ("keyId", "day", "tokens") VALUES (${keyId}, ${day}, ${tokens})
    ON CONFLICT ("keyId", "day") DO UPDATE SET "tokens" = "KeyTokenDay"."tokens" + excluded."tokens"`;
}

export class RunLease {
  /** Applied to every string the lease writes: the run's secrets never reach the database. */
  mask: (text: string) => string = (text) => text;

  /** `keyId`: the API key whose daily token count the run's steps add to (null: none). */
  constructor(
    private prisma: Prisma,
    readonly runId: string,
    readonly workerId: string,
    private keyId: number | null = null,
  ) {}

  /** Writes the step and adds its tokens to its key's count of the day, in the caller's transaction. */
  private async createStep(tx: Pick<Prisma, 'taskStep' | '$executeRaw'>, step: StepRecord): Promise<void> {
    const screenshot = step.screenshot ? new Uint8Array(step.screenshot) : null;
    // Stamped by this clock, the one a key's daily token budget counts days by.
    const createdAt = new Date();
    const data = masked({ runId: this.runId, ...step, arguments: JSON.stringify(step.arguments) }, this.mask);
    await tx.taskStep.create({ data: { ...data, screenshot, createdAt } });
    if (this.keyId !== null && step.tokens > 0) await addKeyTokens(tx, this.keyId, utcDay(createdAt), step.tokens);
  }

  private get where() {
    return { id: this.runId, workerId: this.workerId, status: 'running' };
  }

  /** Writes run columns; throws LeaseLost when the run is no longer ours. */
  async update(data: Record<string, unknown>, tx: Pick<Prisma, 'taskRun'> = this.prisma): Promise<void> {
    const { count } = await tx.taskRun.updateMany({ where: this.where, data: masked(data, this.mask) });
    if (count !== 1) throw new LeaseLost(this.runId);
  }

  /** Renews the heartbeat; false when the run is no longer ours. */
  async heartbeat(): Promise<boolean> {
    const { count } = await this.prisma.taskRun.updateMany({ where: this.where, data: { heartbeatAt: new Date() } });
    return count === 1;
  }

  setStatus(detailedStatus: DetailedStatus, liveStatus: string): Promise<void> {
    return this.update({ detailedStatus, liveStatus, heartbeatAt: new Date() });
  }

  /** Records a step and the state to resume from after it, together. */
  async saveStep(step: StepRecord, state: string, dataTable: unknown[]): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await this.update({ state, dataTable: JSON.stringify(dataTable), heartbeatAt: new Date() }, tx);
      await this.createStep(tx, step);
    });
  }

  /** Parks the run in `tool_call`: the tool call is stored and the worker lets go of the run. */
  async pauseForTool(
    toolCall: { id: string; name: string; arguments: Record<string, unknown> },
    step: StepRecord,
    state: string,
    dataTable: unknown[],
  ) {
    await this.prisma.$transaction(async (tx) => {
      await this.update(
        {
          state,
          dataTable: JSON.stringify(dataTable),
          detailedStatus: 'tool_call',
          liveStatus: `Waiting for the client's answer to ${toolCall.name}`,
          workerId: null,
          heartbeatAt: null,
        },
        tx,
      );
      await tx.toolCall.create({
        data: { id: toolCall.id, runId: this.runId, name: toolCall.name, arguments: this.mask(JSON.stringify(toolCall.arguments)) },
      });
      await this.createStep(tx, step);
    });
  }

  /** Puts the run back in the queue (this process is shutting down); another worker resumes it. */
  release(): Promise<void> {
    return this.update({
      workerId: null,
      heartbeatAt: null,
      detailedStatus: 'queued',
      liveStatus: 'Waiting for a worker (its server restarted)',
    });
  }

  complete(output: unknown, dataTable: unknown[]): Promise<void> {
    return this.update({ ...ending('completed', null), output: JSON.stringify(output ?? null), dataTable: JSON.stringify(dataTable) });
  }

  fail(detailedStatus: 'failed' | 'timed_out' | 'interrupted', error: string, extra: Record<string, unknown> = {}): Promise<void> {
    return this.update({ ...ending(detailedStatus, error), ...extra });
  }
}
