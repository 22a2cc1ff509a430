// The agent loop for one claimed run: observe the page, ask the LLM, execute its call, record the
// step (with the state to resume from), until `done`, a caller tool (the run parks in tool_call and
// the worker lets go), a guard, a stop or a timeout ends it.
import { randomUUID } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import type { Config } from '../config.js';
import type { Prisma } from '../db/client.js';
import type { Logger } from '../http/logger.js';
import { BUILT_IN_ACTIONS, checkActionArguments, isBuiltInName, type FunctionTool } from './actions.js';
import type { BrowserHost, StorageState } from './browser.js';
import { BrowserSession, executeAction, type ActionEnv, type Row } from './browser-actions.js';
import { taskSignals } from './events.js';
import { LeaseLost, RunLease, type StepRecord } from './lease.js';
import { locatorOf } from './locator.js';
import { decide, LlmError, NO_USAGE, type ChatMessage, type LlmClient } from './llm.js';
import { fingerprint, formatObservation, summarizeObservation, type Observation } from './observe.js';
import type { UrlPolicy } from '../net/url-policy.js';
import { resumeNote, systemPrompt, taskMessage } from './prompt.js';
import type { PolicyProxy } from './proxy.js';
import type { ClaimedRun } from './queue.js';
import { taskOptions } from './tasks.js';
import { compileOutputSchema } from './validation.js';
import { BudgetExceeded, RunBudget } from './budgets.js';
import { loadProfile, saveProfile } from './profiles.js';
import { countDownloads, listTaskFiles, loadTaskFile, saveDownload } from './files.js';
import { loadSourceSteps, Replay, type ReplayState } from './replay.js';
import { NO_SECRETS, openSecrets, openText, SecretVault, sealText } from './secrets.js';
import { RunTrace, saveTrace } from './trace.js';
import { liveRuns, type LiveRun } from './live.js';

const MAX_ROWS = 1000;
const MAX_STORAGE_CHARS = 512 * 1024;
/** With ALMANAC_SECRET_KEY, the session's cookies and storage in a run's saved state are sealed: they hold logins. */
const STATE_PURPOSE = 'almanac run state';
/** What is kept of the model's text before each call (its reasoning). */
const MAX_REASONING_CHARS = 4000;
/** How many times a final answer that does not match outputSchema is sent back before the run fails. */
export const MAX_OUTPUT_RETRIES = 2;

/** Everything a run needs to resume after its worker let go (tool call, restart, crash). */
interface AgentState {
  messages: ChatMessage[];
  steps: number;
  failures: number;
  repeat: { key: string; count: number } | null;
  dataTable: Row[];
  url: string;
  storage?: StorageState;
  activeMs: number;
  /** Final answers refused for not matching outputSchema so far. */
  outputRejections?: number;
  /** Where the replay of the task's replayOf run stands; absent once the model took over. */
  replay?: ReplayState;
  waitingFor?: { toolCallId: string; llmCallId: string };
}

export interface AgentDeps {
  prisma: Prisma;
  config: Config;
  logger: Logger;
  browser: BrowserHost;
  proxy: PolicyProxy;
  policy: UrlPolicy;
  llm: LlmClient;
  workerId: string;
}

/** A guard ended the run: the message is the run's `error`. */
class GuardError extends Error {
  constructor(
    readonly detailedStatus: 'failed' | 'timed_out',
    message: string,
  ) {
    super(message);
  }
}

type AbortReason = 'ended' | 'lost' | 'shutdown' | 'timeout';

export async function runAgent(run: ClaimedRun, deps: AgentDeps, shutdown: AbortSignal): Promise<void> {
  await new AgentRun(run, deps).execute(shutdown);
}

class AgentRun {
  private controller = new AbortController();
  private lease: RunLease;
  private options;
  private callerTools: FunctionTool[];
  private validators = new Map<string, ValidateFunction>();
  private session: BrowserSession | undefined;
  private trace: RunTrace | null = null;
  private traceKept = false;
  private live: LiveRun | undefined;
  private replay: Replay | undefined;
  /** The task's files for upload_file: name, type and size. */
  private files: Array<{ name: string; mimeType: string; size: number }> = [];
  private vault = NO_SECRETS;
  private validateOutput: ValidateFunction | undefined;
  private budget: RunBudget | undefined;
  private state: AgentState;
  private claimedAt = Date.now();
  private activeAtClaim: number;

  constructor(
    private run: ClaimedRun,
    private deps: AgentDeps,
  ) {
    this.lease = new RunLease(deps.prisma, run.id, deps.workerId, run.task.keyId);
    this.options = taskOptions(run.task);
    this.callerTools = JSON.parse(run.task.tools) as FunctionTool[];
    const ajv = new Ajv({ strict: false });
    for (const tool of this.callerTools) {
      if (tool.function.parameters) this.validators.set(tool.function.name, ajv.compile(tool.function.parameters));
    }
    this.state = run.state
      ? this.readState(run.state)
      : { messages: [], steps: 0, failures: 0, repeat: null, dataTable: [], url: '', activeMs: 0 };
    this.activeAtClaim = this.state.activeMs;
  }

  private get signal() {
    return this.controller.signal;
  }

  private abort(reason: AbortReason) {
    if (this.signal.aborted) return;
    this.controller.abort(reason);
    // Closing the context ends whatever the page was doing at once (its trace is taken first).
    const context = this.session?.context;
    void (this.trace?.stop() ?? Promise.resolve()).finally(() => context?.close().catch(() => undefined));
  }

  async execute(shutdown: AbortSignal): Promise<void> {
    const t = this.deps.config.tasks;
    const budgetMs = this.options.timeoutSeconds * 1000 - this.state.activeMs;
    const heartbeat = setInterval(() => {
      this.lease.heartbeat().then(
        (ours) => ours || this.abort('lost'),
        () => undefined,
      );
    }, t.heartbeatMs);
    const deadline = setTimeout(() => this.abort('timeout'), Math.max(0, budgetMs));
    const onEnded = (runId: string) => runId === this.run.id && this.abort('ended');
    const onShutdown = () => this.abort('shutdown');
    taskSignals.on('ended', onEnded);
    shutdown.addEventListener('abort', onShutdown);
    if (shutdown.aborted) onShutdown();
    try {
      if (budgetMs <= 0) throw new GuardError('timed_out', this.timeoutMessage());
      await this.prepare();
      await this.loop(this.deps.llm);
    } catch (error) {
      await this.conclude(error);
    } finally {
      clearInterval(heartbeat);
      clearTimeout(deadline);
      taskSignals.off('ended', onEnded);
      shutdown.removeEventListener('abort', onShutdown);
      liveRuns.remove(this.run.id);
      await this.keepTrace();
      await this.session?.context.close().catch(() => undefined);
    }
  }

  private env(): ActionEnv {
    return {
      policy: this.deps.policy,
      timeoutMs: this.deps.config.tasks.actionTimeoutMs,
      signal: this.signal,
      reveal: (text) => this.vault.reveal(text),
      files: {
        names: this.files.map((f) => f.name),
        load: (name) => loadTaskFile(this.deps.prisma, this.run.task.id, name),
      },
    };
  }

  /** Answers a tool call the run waited on, opens the browser and restores the page. */
  private async prepare(): Promise<void> {
    const state = this.state;
    this.openVault();
    this.budget = await RunBudget.open(this.deps.prisma, this.deps.config.tasks, this.options, this.run.task.keyId, this.run.id);
    let note: ChatMessage | undefined;
    if (state.waitingFor) {
      const call = await this.deps.prisma.toolCall.findUnique({ where: { id: state.waitingFor.toolCallId } });
      if (call?.input == null) throw new Error('resumed without the input of its tool call');
      state.messages.push({ role: 'tool', tool_call_id: state.waitingFor.llmCallId, content: call.input });
      state.waitingFor = undefined;
      note = resumeNote(state.url, false);
    } else if (state.messages.length) {
      note = resumeNote(state.url, true);
    }
    await this.lease.setStatus('starting_browser', 'Starting the browser');
    // A first start opens the task's profile; a resumed run has the session it left.
    const profile = this.options.profile;
    if (profile && !state.messages.length)
      state.storage = await loadProfile(this.deps.prisma, this.profileKey(), this.run.task.ownerId, profile);
    const context = await this.deps.browser.newContext(state.storage);
    this.session = await BrowserSession.open(context, this.deps.proxy);
    this.trace = await RunTrace.start(context, this.deps.config.tasks.maxTraceBytes, !!this.run.task.secrets);
    const session = this.session;
    this.live = { context, page: () => session.page, step: 'Starting the browser' };
    liveRuns.add(this.run.id, this.live);
    if (this.signal.aborted) throw new Error('aborted');
    this.files = await listTaskFiles(this.deps.prisma, this.run.task.id);
    const { prisma, config } = this.deps;
    this.session.downloads = {
      maxBytes: config.tasks.maxDownloadBytes,
      // A resumed run counts what it kept before.
      remaining: config.tasks.maxDownloads - (await countDownloads(prisma, this.run.id)),
      keep: (file) => saveDownload(prisma, this.run.id, file),
    };
    const first = !state.messages.length;
    const target = first ? this.options.startUrl : state.url && state.url !== 'about:blank' ? state.url : undefined;
    if (target) {
      const opened = await executeAction(this.session, 'navigate', { url: target }, this.env());
      if (!opened.ok && first) throw new GuardError('failed', `startUrl could not be opened: ${opened.result}`);
    }
    if (first) state.messages.push(taskMessage(this.run.task.task, this.options.startUrl));
    if (note) state.messages.push(note);
    const replayOf = this.options.replayOf;
    if (replayOf && first) state.replay = { next: 0, done: [] };
    if (replayOf && state.replay)
      this.replay = new Replay(await loadSourceSteps(this.deps.prisma, replayOf), state.replay, this.vault, !first);
  }

  /** The task's secrets, and the lease masking them in all it writes. */
  private openVault(): void {
    const sealed = this.run.task.secrets;
    if (!sealed) return;
    const key = this.secretKey('the task has secrets but the server has no ALMANAC_SECRET_KEY to read them with');
    this.vault = new SecretVault(openSecrets(sealed, key));
    this.lease.mask = (text) => this.vault.mask(text);
  }

  private checkArguments = (name: string, args: Record<string, unknown>): string | null => {
    if (isBuiltInName(name)) return checkActionArguments(name, args);
    const validate = this.validators.get(name);
    if (!validate || validate(args)) return null;
    const error = validate.errors?.[0];
    return `arguments of ${name}: ${error?.instancePath || '(root)'} ${error?.message ?? 'invalid'}`;
  };

  private async loop(llm: LlmClient): Promise<void> {
    const t = this.deps.config.tasks;
    const state = this.state;
    const session = this.session!;
    const budget = this.budget!;
    // upload_file is offered to a task that has files.
    const builtIns = this.files.length ? BUILT_IN_ACTIONS : BUILT_IN_ACTIONS.filter((a) => a.function.name !== 'upload_file');
    const tools = [...builtIns, ...this.callerTools];
    const system = systemPrompt(this.callerTools, {
      secrets: this.vault.names.length ? this.vault.describe() : undefined,
      outputSchema: this.options.outputSchema,
      files: this.files,
    });
    for (;;) {
      if (this.signal.aborted) throw new Error('aborted');
      if (state.steps >= this.options.maxSteps) {
        throw new GuardError('failed', `step budget used up: ${this.options.maxSteps} steps taken without finishing (maxSteps)`);
      }
      const index = state.steps + 1;
      const observation = await session.observe();
      const screenshot = await session.page.screenshot({ type: 'png', timeout: 10_000 }).catch(() => undefined);
      // A replayed step takes its action from the earlier run; the model decides the others.
      let decision = this.replay?.decide(observation);
      if (decision && 'takeOver' in decision) {
        this.endReplay(decision.takeOver);
        decision = undefined;
      }
      const replayed = decision;
      let assistant: ChatMessage | undefined;
      let call: { id: string; name: string; arguments: Record<string, unknown> };
      let usage = NO_USAGE;
      if (replayed) {
        call = { id: `replay-${index}`, ...replayed.call };
      } else {
        await this.setStatus('thinking', `Step ${index}: deciding what to do on ${observation.title || observation.url}`);
        const view = await this.view(observation, index);
        budget.startDecision();
        ({ assistant, call, usage } = await decide(
          llm,
          [system, ...state.messages, view],
          tools,
          this.checkArguments,
          this.signal,
          budget,
        ));
        state.messages.push({ role: 'user', content: this.vault.mask(summarizeObservation(observation, index)) }, assistant);
      }
      state.steps = index;
      state.url = observation.url;
      const reasoning = (typeof assistant?.content === 'string' ? assistant.content.trim() : '').slice(0, MAX_REASONING_CHARS);
      const step: StepRecord = {
        index,
        url: observation.url,
        title: observation.title,
        action: call.name,
        arguments: call.arguments,
        result: '',
        reasoning,
        tokens: usage.total,
        costUsd: budget.costOf(usage),
        screenshot,
        replayed: !!replayed,
      };
      const locator = locatorOf(observation, call.arguments);
      if (locator) step.locator = JSON.stringify(locator);
      const overrun = budget.spent();
      if (overrun) {
        step.result = `not executed: ${overrun}`;
        await this.lease.saveStep(step, this.snapshot(), state.dataTable);
        throw new GuardError('failed', overrun);
      }

      if (!isBuiltInName(call.name)) {
        const toolCallId = randomUUID();
        state.waitingFor = { toolCallId, llmCallId: call.id };
        state.storage = await this.storage();
        step.result = "waiting for the client's input";
        await this.keepTrace();
        await this.lease.pauseForTool(
          { id: toolCallId, name: call.name, arguments: call.arguments },
          step,
          this.snapshot(),
          state.dataTable,
        );
        return;
      }
      const rejection = call.name === 'done' ? this.checkOutput(call.arguments) : null;
      if (rejection && replayed) {
        step.result = `output rejected: ${rejection}`;
        await this.lease.saveStep(step, this.snapshot(), state.dataTable);
        this.endReplay(`the earlier run's answer does not match this task's outputSchema (${rejection})`);
        continue;
      }
      if (rejection) {
        state.outputRejections = (state.outputRejections ?? 0) + 1;
        step.result = `output rejected: ${rejection}`;
        await this.lease.saveStep(step, this.snapshot(), state.dataTable);
        if (state.outputRejections > MAX_OUTPUT_RETRIES)
          throw new GuardError(
            'failed',
            `the final answer did not match outputSchema after ${state.outputRejections} attempts; the last: ${rejection}`,
          );
        state.messages.push({
          role: 'tool',
          tool_call_id: call.id,
          content: `Not accepted: output does not match the outputSchema (${rejection}). Call done again with \`output\` a JSON value that validates.`,
        });
        continue;
      }
      if (call.name === 'done') {
        // Downloads the last action started are kept before the run is seen to end.
        const downloads = await session.reportDownloads(t.actionTimeoutMs);
        step.result = ['finished', ...downloads].join('; ');
        await this.lease.saveStep(step, this.snapshot(), state.dataTable);
        return this.finish(call.arguments);
      }
      const key = `${call.name} ${JSON.stringify(call.arguments)} ${fingerprint(observation)}`;
      state.repeat = state.repeat?.key === key ? { key, count: state.repeat.count + 1 } : { key, count: 1 };
      if (state.repeat.count >= t.maxRepeatedActions) {
        step.result = 'not executed: the same action on the same page again';
        await this.lease.saveStep(step, this.snapshot(), state.dataTable);
        throw new GuardError(
          'failed',
          `the agent repeated the same action (${call.name} ${JSON.stringify(call.arguments)}) ${state.repeat.count} times without the page changing`,
        );
      }

      await this.setStatus('acting', `Step ${index}: ${call.name} ${JSON.stringify(call.arguments)}`);
      const outcome = await executeAction(session, call.name, call.arguments, this.env());
      if (this.signal.aborted) throw new Error('aborted');
      if (outcome.rows) state.dataTable.push(...outcome.rows.slice(0, MAX_ROWS - state.dataTable.length));
      state.failures = outcome.ok ? 0 : state.failures + 1;
      if (assistant) state.messages.push({ role: 'tool', tool_call_id: call.id, content: this.vault.mask(outcome.result) });
      const stray = replayed && this.replay!.record(replayed.source, outcome.ok, outcome.result);
      if (stray) this.endReplay(stray);
      state.url = session.page.url();
      state.storage = await this.storage();
      step.result = outcome.result;
      await this.lease.saveStep(step, this.snapshot(), state.dataTable);
      if (state.failures >= t.maxConsecutiveFailures) {
        throw new GuardError(
          'failed',
          `${state.failures} browser actions failed in a row (TASK_MAX_CONSECUTIVE_FAILURES); the last: ${outcome.result}`,
        );
      }
    }
  }

  /** The run's liveStatus, in the database and in its live view. */
  private setStatus(detailed: 'thinking' | 'acting', text: string): Promise<void> {
    if (this.live) this.live.step = this.vault.mask(text);
    return this.lease.setStatus(detailed, text);
  }

  /** Hands the run over to the model, telling it what was replayed and why the replay stopped. */
  private endReplay(reason: string): void {
    this.state.messages.push({ role: 'user', content: this.vault.mask(this.replay!.note(reason)) });
    this.replay = this.state.replay = undefined;
  }

  /** The page as the model is sent it: the listing (its secrets masked) and, for a model that sees, the picture. */
  private async view(observation: Observation, index: number): Promise<ChatMessage> {
    // The page may show a secret (a typed value, an echo): the model sees its placeholder.
    const listing = this.vault.mask(formatObservation(observation, index, this.options.maxSteps));
    // A model that sees gets the picture too, this once: the conversation keeps the summary only.
    const picture = this.deps.config.tasks.vision ? await this.session!.visionShot() : undefined;
    if (!picture) return { role: 'user', content: listing };
    const image = { url: `data:image/jpeg;base64,${picture.toString('base64')}` };
    return {
      role: 'user',
      content: [
        { type: 'text', text: listing },
        { type: 'image_url', image_url: image },
      ],
    };
  }

  /**
   * Why a successful done's output does not fit the task's outputSchema (null when it does, or there
   * is none); a JSON text is read as the value it holds. The value checked is stored in the arguments.
   */
  private checkOutput(args: Record<string, unknown>): string | null {
    const schema = this.options.outputSchema;
    if (!schema || args.success === false) return null;
    let output = args.output;
    if (typeof output === 'string') {
      try {
        output = JSON.parse(output);
      } catch {
        // A plain text: validated as the string it is.
      }
    }
    this.validateOutput ??= compileOutputSchema(schema);
    if (this.validateOutput(output)) {
      args.output = output;
      return null;
    }
    return (this.validateOutput.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
      .join('; ');
  }

  /** Cookies and local storage to reopen the session with; local storage goes when it is huge. */
  private async storage(): Promise<StorageState | undefined> {
    const storage = await this.session!.context.storageState().catch(() => this.state.storage);
    if (storage && JSON.stringify(storage).length > MAX_STORAGE_CHARS) return { cookies: storage.cookies, origins: [] };
    return storage;
  }

  private snapshot(): string {
    this.state.activeMs = this.activeAtClaim + (Date.now() - this.claimedAt);
    const key = this.deps.config.secretKey;
    if (!key || !this.state.storage) return JSON.stringify(this.state);
    const { storage, ...rest } = this.state;
    return JSON.stringify({ ...rest, sealedStorage: sealText(JSON.stringify(storage), key, STATE_PURPOSE) });
  }

  /** The stored state; a sealed session that cannot be opened (the key changed) resumes logged out. */
  private readState(text: string): AgentState {
    const { sealedStorage, ...state } = JSON.parse(text) as AgentState & { sealedStorage?: string };
    const key = this.deps.config.secretKey;
    if (sealedStorage && key) {
      try {
        state.storage = JSON.parse(openText(sealedStorage, key, STATE_PURPOSE)) as StorageState;
      } catch {
        state.storage = undefined;
      }
    }
    return state;
  }

  /** The server's ALMANAC_SECRET_KEY, or the run fails with `missing` (the key was unset after the task was made). */
  private secretKey(missing: string): string {
    const key = this.deps.config.secretKey;
    if (!key) throw new GuardError('failed', missing);
    return key;
  }

  private profileKey(): string {
    return this.secretKey('the task uses a browser profile but the server has no ALMANAC_SECRET_KEY to read it with');
  }

  /**
   * Saves the session back to the task's profile as the run ends, before its end is recorded (a task
   * started once this one is seen ended finds the login). A run that fails keeps its login too, as a
   * browser window closed mid-task would; a failed save is logged and does not change the run's end.
   */
  private async saveProfile(): Promise<void> {
    const profile = this.options.profile;
    if (!profile) return;
    try {
      const storage = this.session ? await this.storage() : this.state.storage;
      if (!storage) return;
      const saved = await saveProfile(this.deps.prisma, this.profileKey(), this.run.task.ownerId, profile, storage);
      if (!saved) this.deps.logger.warn({ runId: this.run.id, profile }, 'browser profile not saved: the user has too many');
    } catch (error) {
      this.deps.logger.error({ runId: this.run.id, profile, err: error }, 'browser profile not saved');
    }
  }

  /** Stores the run's trace once, before its end (or pause) is recorded; a failed save leaves the run as it is. */
  private async keepTrace(): Promise<void> {
    if (!this.trace || this.traceKept) return;
    this.traceKept = true;
    const zip = await this.trace.stop();
    if (!zip) return;
    await saveTrace(this.deps.prisma, this.run.id, zip).catch((err: unknown) =>
      this.deps.logger.error({ runId: this.run.id, err }, 'run trace not saved'),
    );
  }

  private async finish(args: Record<string, unknown>): Promise<void> {
    const dataTable = Array.isArray(args.dataTable) ? (args.dataTable as Row[]).slice(0, MAX_ROWS) : this.state.dataTable;
    await this.saveProfile();
    await this.keepTrace();
    if (args.success === false) {
      const said = typeof args.output === 'string' ? args.output : JSON.stringify(args.output);
      return this.lease.fail('failed', `the agent could not complete the task: ${said}`, {
        output: JSON.stringify(args.output ?? null),
        dataTable: JSON.stringify(dataTable),
      });
    }
    return this.lease.complete(args.output, dataTable);
  }

  private timeoutMessage(): string {
    return `the run exceeded its time limit of ${this.options.timeoutSeconds} s (timeoutSeconds, at most TASK_RUN_TIMEOUT_MS)`;
  }

  /** Ends the run after an error, or lets go of it when it was ended or taken from elsewhere. */
  private async conclude(error: unknown): Promise<void> {
    const reason = this.signal.reason as AbortReason | undefined;
    const log = this.deps.logger;
    try {
      if (reason === 'ended' || reason === 'lost' || error instanceof LeaseLost) {
        log.info({ runId: this.run.id, reason: reason ?? 'lost' }, 'run let go');
        return;
      }
      await this.keepTrace();
      if (reason === 'shutdown') {
        await this.lease.release();
        return;
      }
      await this.saveProfile();
      if (reason === 'timeout') {
        await this.lease.fail('timed_out', this.timeoutMessage());
      } else if (error instanceof GuardError) {
        await this.lease.fail(error.detailedStatus, error.message);
      } else if (error instanceof BudgetExceeded) {
        await this.lease.fail('failed', error.message);
      } else if (error instanceof LlmError) {
        await this.lease.fail(error.kind === 'timeout' ? 'timed_out' : 'failed', `LLM: ${error.message}`);
      } else {
        const err = this.vault.mask((error as Error)?.stack ?? String(error));
        log.error({ runId: this.run.id, err }, 'run failed unexpectedly');
        await this.lease.fail('failed', `the run failed: ${(error as Error)?.message ?? String(error)}`);
      }
    } catch (writeError) {
      if (!(writeError instanceof LeaseLost)) log.error({ runId: this.run.id, err: writeError }, 'could not record the end of a run');
    }
  }
}
