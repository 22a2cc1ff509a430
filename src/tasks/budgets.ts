// What runs may spend on the LLM: a task's maxTokens and maxCostUsd (priced by LLM_PRICES), and
// its API key's tokens per UTC day (TASK_DAILY_TOKENS_PER_KEY, over all the key's runs). A run's
// use is the sum of its steps' tokens and cost. Checked before each LLM call (a run never starts a
// call once a budget is spent) and after it (a call that went over ends the run, its decision not
// carried out).
import type { Config, ModelPrice } from '../config.js';
import type { Prisma } from '../db/client.js';
import { invalid, TaskError } from './errors.js';
import { utcDay } from './lease.js';
import type { CallMeter, Usage } from './llm.js';
import type { TaskOptions } from './validation.js';

/** A budget is spent: the message names the limit and the use. */
export class BudgetExceeded extends Error {}

export interface RunUsage {
  tokens: number;
  /** USD; null when a step's model had no price in LLM_PRICES. */
  costUsd: number | null;
}

export function priceOf(config: Config['tasks']): ModelPrice | undefined {
  return Object.hasOwn(config.llmPrices, config.llmModel) ? config.llmPrices[config.llmModel] : undefined;
}

/** USD of one call. Tokens the endpoint reports in its total but not as prompt or completion are charged at the output rate. */
export function costOf(usage: Usage, price: ModelPrice): number {
  const unsplit = Math.max(0, usage.total - usage.input - usage.output);
  return (usage.input * price.input + (usage.output + unsplit) * price.output) / 1e6;
}

export const formatUsd = (usd: number) => `$${usd.toLocaleString('en-US', { maximumSignificantDigits: 6 })}`;

/** A price for the model when the task has a maxCostUsd: checked at create (400) and again when a run starts. */
function costRule(config: Config['tasks']): string {
  return `needs the price of the model "${config.llmModel}" in LLM_PRICES (USD per 1M input and output tokens), which this server does not have`;
}

export function checkBudgetOptions(config: Config['tasks'], options: TaskOptions): void {
  if (options.maxCostUsd !== undefined && !priceOf(config)) throw invalid('maxCostUsd', costRule(config));
}

/** Tokens the runs of the key's tasks used since the UTC day began (counted as steps are saved). */
async function keyTokensToday(prisma: Pick<Prisma, 'keyTokenDay'>, keyId: number): Promise<number> {
  const row = await prisma.keyTokenDay.findUnique({ where: { keyId_day: { keyId, day: utcDay(new Date()) } } });
  return row?.tokens ?? 0;
}

const dailyMessage = (used: number, limit: number) =>
  `TASK_DAILY_TOKENS_PER_KEY reached: the runs of this API key have used ${used} tokens today (UTC), its limit is ${limit}`;

/** A new run (create, re-run) is refused while its key's tokens of the day are spent. */
export async function checkKeyTokens(
  prisma: Pick<Prisma, 'keyTokenDay'>,
  config: Config['tasks'],
  keyId: number | undefined,
): Promise<void> {
  const limit = config.dailyTokensPerKey;
  if (!limit || keyId === undefined) return;
  const used = await keyTokensToday(prisma, keyId);
  if (used >= limit) throw new TaskError('limit', `${dailyMessage(used, limit)}; new runs start again after 00:00 UTC`);
}

/** The use of each run (one statement for all). */
export async function runUsages(prisma: Prisma, runIds: string[]): Promise<Map<string, RunUsage>> {
  const groups = await prisma.taskStep.groupBy({
    by: ['runId'],
    where: { runId: { in: runIds } },
    _sum: { tokens: true, costUsd: true },
    _count: { _all: true, costUsd: true },
  });
  const usages = new Map<string, RunUsage>(runIds.map((id) => [id, { tokens: 0, costUsd: 0 }]));
  for (const g of groups) {
    const priced = g._count.costUsd === g._count._all;
    usages.set(g.runId, { tokens: g._sum.tokens ?? 0, costUsd: priced ? (g._sum.costUsd ?? 0) : null });
  }
  return usages;
}

/** One run's use against its budgets, as its LLM calls happen (the meter `decide` reports to). */
export class RunBudget implements CallMeter {
  /** Tokens of calls not yet in a saved step: the key's daily count in the database does not have them. */
  private unsaved = 0;
  private keyToday = 0;

  private constructor(
    private prisma: Prisma,
    private config: Config['tasks'],
    private options: TaskOptions,
    private keyId: number | null,
    private price: ModelPrice | undefined,
    private used: { tokens: number; costUsd: number },
  ) {}

  /** The run's budget (its task's options and key), with what its steps so far (before a resume) used. */
  static async open(prisma: Prisma, config: Config['tasks'], options: TaskOptions, keyId: number | null, runId: string) {
    const price = priceOf(config);
    if (options.maxCostUsd !== undefined && !price) throw new BudgetExceeded(`maxCostUsd ${costRule(config)}`);
    const usage = (await runUsages(prisma, [runId])).get(runId)!;
    return new RunBudget(prisma, config, options, keyId, price, { tokens: usage.tokens, costUsd: usage.costUsd ?? 0 });
  }

  /** What a call's usage cost (null: no price), as a step records it. */
  costOf(usage: Usage): number | null {
    return this.price ? costOf(usage, this.price) : null;
  }

  async before(): Promise<void> {
    const limit = this.config.dailyTokensPerKey;
    if (limit && this.keyId !== null) this.keyToday = (await keyTokensToday(this.prisma, this.keyId)) + this.unsaved;
    const spent = this.spent(true);
    if (spent) throw new BudgetExceeded(spent);
  }

  after(usage: Usage): void {
    this.used.tokens += usage.total;
    this.used.costUsd += this.costOf(usage) ?? 0;
    this.keyToday += usage.total;
    this.unsaved += usage.total;
  }

  /** A new decision begins: the previous one's tokens are in a saved step by now. */
  startDecision(): void {
    this.unsaved = 0;
  }

  /** Why the run may not go on: before a call, a budget reached; after one, a budget gone over. */
  spent(beforeCall = false): string | null {
    const over = (used: number, limit: number | undefined) => !!limit && (beforeCall ? used >= limit : used > limit);
    const { maxTokens, maxCostUsd } = this.options;
    const { tokens, costUsd } = this.used;
    if (over(tokens, maxTokens)) return `maxTokens reached: the run has used ${tokens} tokens, its maxTokens is ${maxTokens}`;
    if (over(costUsd, maxCostUsd))
      return `maxCostUsd reached: the run has cost ${formatUsd(costUsd)} (${tokens} tokens of ${this.config.llmModel} at its LLM_PRICES), its maxCostUsd is ${formatUsd(maxCostUsd!)}`;
    const limit = this.config.dailyTokensPerKey;
    if (this.keyId !== null && over(this.keyToday, limit)) return dailyMessage(this.keyToday, limit);
    return null;
  }
}
