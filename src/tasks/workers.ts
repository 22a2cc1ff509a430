// The worker pool of one process: claims runs while it has free slots (on each poll, and at once
// when this process queues one), sweeps runs of dead workers and expired tool waits, and on stop
// hands its runs back to the queue so another process (or the next start) resumes them.
// It has its own database client: its polling stays out of the API's connections and statement counts.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../config.js';
import { openDatabase, type Database } from '../db/client.js';
import type { Logger } from '../http/logger.js';
import { runAgent, type AgentDeps } from './agent.js';
import { BrowserHost } from './browser.js';
import { taskSignals } from './events.js';
import { LlmClient } from './llm.js';
import { outboundPolicy } from '../net/url-policy.js';
import { startPolicyProxy, type PolicyProxy } from './proxy.js';
import { claimNextRun, expireToolWaits, recoverStaleRuns } from './queue.js';
import { startWebhookDeliveries } from './webhooks.js';

export interface TaskWorkersDeps {
  config: Config;
  logger: Logger;
}

export class TaskWorkers {
  readonly workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private active = new Map<string, Promise<void>>();
  private shutdown = new AbortController();
  private timers: NodeJS.Timeout[] = [];
  private filling: Promise<void> | undefined;
  private refill = false;
  private agentDeps: AgentDeps | undefined;
  private proxy: PolicyProxy | undefined;
  private db!: Database;
  private webhooks?: { stop(): Promise<void> };

  constructor(private deps: TaskWorkersDeps) {}

  private get prisma() {
    return this.db.prisma;
  }

  get size(): number {
    return this.deps.config.tasks.workers;
  }

  async start(): Promise<void> {
    const { config, logger } = this.deps;
    const t = config.tasks;
    this.db = await openDatabase(config.databaseUrl, { poolSize: t.workers + 2 });
    // Without an LLM this process claims nothing (a process that has one will); it still sweeps.
    if (t.llmBaseUrl) {
      const policy = outboundPolicy(config);
      this.proxy = await startPolicyProxy(policy, { host: t.proxyHost, port: t.proxyPort });
      const llm = new LlmClient({ baseUrl: t.llmBaseUrl, apiKey: t.llmApiKey, model: t.llmModel, timeoutMs: t.llmTimeoutMs });
      const source = t.cdpUrl ? { cdpUrl: t.cdpUrl } : { executablePath: t.chromiumPath };
      const browser = new BrowserHost(source, this.proxy, t.proxyUrl);
      this.agentDeps = { prisma: this.prisma, config, logger, policy, llm, proxy: this.proxy, browser, workerId: this.workerId };
      taskSignals.on('queued', this.kick);
      this.timers.push(setInterval(this.kick, t.pollMs));
    }
    this.timers.push(setInterval(() => void this.sweep(), Math.min(t.heartbeatMs, 5000)));
    // Webhook deliveries are the task service's too: made on this pool's own connection.
    this.webhooks = startWebhookDeliveries({ prisma: this.prisma, config, logger });
    logger.info({ workerId: this.workerId, workers: this.size, llm: Boolean(t.llmBaseUrl) }, 'task workers started');
    await this.sweep();
  }

  private kick = () => {
    if (this.filling) this.refill = true;
    else this.filling = this.fill().finally(() => (this.filling = undefined));
  };

  /** Claims runs until the pool is full or the queue is empty. */
  private async fill(): Promise<void> {
    try {
      do {
        this.refill = false;
        while (this.agentDeps && this.active.size < this.size && !this.shutdown.signal.aborted) {
          const run = await claimNextRun(this.prisma, this.workerId);
          if (!run) break;
          this.launch(run);
        }
      } while (this.refill && !this.shutdown.signal.aborted);
    } catch (error) {
      if (!this.shutdown.signal.aborted) this.deps.logger.error({ err: error }, 'could not claim task runs');
    }
  }

  private launch(run: Awaited<ReturnType<typeof claimNextRun>> & object): void {
    this.deps.logger.info({ runId: run.id, taskId: run.taskId, workerId: this.workerId }, 'run claimed');
    const done = runAgent(run, this.agentDeps!, this.shutdown.signal)
      .catch((error) => this.deps.logger.error({ runId: run.id, err: error }, 'run crashed'))
      .finally(() => {
        this.active.delete(run.id);
        this.kick();
      });
    this.active.set(run.id, done);
  }

  private async sweep(): Promise<void> {
    if (this.shutdown.signal.aborted) return;
    try {
      const recovered = await recoverStaleRuns(this.prisma, this.deps.config.tasks);
      const expired = await expireToolWaits(this.prisma, this.deps.config.tasks);
      if (recovered || expired) this.deps.logger.info({ recovered, expired }, 'task runs swept');
      if (recovered) this.kick();
    } catch (error) {
      if (!this.shutdown.signal.aborted) this.deps.logger.error({ err: error }, 'could not sweep task runs');
    }
  }

  /** Stops claiming, hands running runs back to the queue, closes the browser. */
  async stop(): Promise<void> {
    if (this.shutdown.signal.aborted) return;
    this.shutdown.abort();
    for (const timer of this.timers) clearInterval(timer);
    taskSignals.off('queued', this.kick);
    await this.filling; // a claim in flight still lands in `active`
    await Promise.allSettled(this.active.values());
    await this.agentDeps?.browser.close();
    await this.proxy?.close();
    await this.webhooks?.stop();
    await this.db?.close();
  }
}

/** Starts the pool; with TASK_WORKERS=0 this process only serves the API (others run the tasks). */
export async function startTaskWorkers(deps: TaskWorkersDeps): Promise<{ stop(): Promise<void> }> {
  if (deps.config.tasks.workers === 0) return { stop: async () => undefined };
  const workers = new TaskWorkers(deps);
  await workers.start();
  return workers;
}
