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
  screenshot?: Uint8Array;
}

/** Every string of a row to write, masked (the run's secrets become their placeholders). */
function masked<T extends Record<string, unknown>>(data: T, mask: (text: string) => string): T {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? mask(v) : v])) as T;
}

export class RunLease {
  /** Applied to every string the lease writes: the run's secrets never reach the database. */
  mask: (text: string) => string = (text) => text;

  constructor(
    private prisma: Prisma,
    readonly runId: string,
    readonly workerId: string,
  ) {}

  private stepData(step: StepRecord) {
    const screenshot = step.screenshot ? new Uint8Array(step.screenshot) : null;
    // Stamped by this clock, the one a key's daily token budget counts days by.
    const createdAt = new Date();
    return { ...masked({ runId: this.runId, ...step, arguments: JSON.stringify(step.arguments) }, this.mask), screenshot, createdAt };
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
      await tx.taskStep.create({ data: this.stepData(step) });
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
      await tx.taskStep.create({ data: this.stepData(step) });
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
