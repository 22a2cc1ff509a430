// The create contract: task, agent, tools (OpenAI-style function tools with a JSON Schema each) and
// the optional run settings. Every failure names the field and the rule it broke.
import { checkHttpUrl } from '../net/http-url.js';
import { Ajv } from 'ajv';
import { isBuiltInName, type FunctionTool } from './actions.js';
import { invalid } from './errors.js';
import { isPlainObject } from '../values.js';
import { validateProfileName } from './profiles.js';
import { validateSecrets, type TaskSecrets } from './secrets.js';

export const AGENTS = ['BROWSER_AGENT'] as const;
export const MAX_TASK_LENGTH = 10_000;
export const MAX_TOOLS = 32;
export const MAX_TASK_NAME = 120;
export const MAX_TOKENS_LIMIT = 1_000_000_000;
export const MAX_COST_LIMIT = 1_000_000;

/** The budget arguments of create, described once for both APIs. */
export const BUDGET_DOCS = {
  maxTokens: `Tokens each run may use (1 to ${MAX_TOKENS_LIMIT}), as the LLM reports them: checked before and after each LLM call; a run that reaches it ends failed, naming it.`,
  maxCostUsd: `USD each run's tokens may cost (over 0, at most ${MAX_COST_LIMIT}) at the model's price in LLM_PRICES (a model without one: 400): checked before and after each LLM call; a run that reaches it ends failed, naming it.`,
};
const NAME_RULE = /^[A-Za-z0-9_-]{1,64}$/;
const ARGUMENT_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'];
const MAX_SCHEMA_DEPTH = 8;

export interface CreateTaskInput {
  task?: unknown;
  name?: unknown;
  agent?: unknown;
  tools?: unknown;
  maxSteps?: unknown;
  timeoutSeconds?: unknown;
  startUrl?: unknown;
  webhookUrl?: unknown;
  secrets?: unknown;
  outputSchema?: unknown;
  profile?: unknown;
  maxTokens?: unknown;
  maxCostUsd?: unknown;
  files?: unknown;
  replayOf?: unknown;
}

export interface TaskOptions {
  maxSteps: number;
  timeoutSeconds: number;
  startUrl?: string;
  /** A JSON Schema the final answer must satisfy; the validated object is the run's output. */
  outputSchema?: Record<string, unknown>;
  /** The caller's browser profile its runs start with and save back to (profiles.ts). */
  profile?: string;
  /** Budgets of each run: LLM tokens, and their cost in USD at the model's LLM_PRICES. */
  maxTokens?: number;
  maxCostUsd?: number;
  /** A completed run of the owner's whose steps each run replays without the LLM (replay.ts). */
  replayOf?: string;
}

export interface ValidTask {
  task: string;
  name?: string;
  agent: string;
  tools: FunctionTool[];
  options: TaskOptions;
  webhookUrl?: string;
  secrets?: TaskSecrets;
}

export interface TaskLimits {
  maxSteps: number;
  runTimeoutMs: number;
}

export function maxStepsLimit(limits: TaskLimits): number {
  return Math.max(100, limits.maxSteps);
}

export function validateCreateTask(input: CreateTaskInput, limits: TaskLimits): ValidTask {
  if (input.task === undefined || input.task === null) throw invalid('task', 'is required');
  if (typeof input.task !== 'string') throw invalid('task', 'must be a string');
  const task = input.task.trim();
  if (!task) throw invalid('task', 'must not be empty');
  if (task.length > MAX_TASK_LENGTH) throw invalid('task', `must be at most ${MAX_TASK_LENGTH} characters (got ${task.length})`);

  const agent = input.agent ?? 'BROWSER_AGENT';
  if (!(AGENTS as readonly unknown[]).includes(agent)) throw invalid('agent', `must be one of: ${AGENTS.join(', ')}`);

  const tools = validateTools(input.tools ?? []);

  const stepsMax = maxStepsLimit(limits);
  const maxSteps = optionalInteger(input.maxSteps, 'maxSteps', 1, stepsMax) ?? limits.maxSteps;
  const secondsMax = Math.floor(limits.runTimeoutMs / 1000);
  const timeoutSeconds = optionalInteger(input.timeoutSeconds, 'timeoutSeconds', 1, secondsMax) ?? secondsMax;
  const options: TaskOptions = { maxSteps, timeoutSeconds };
  if (input.startUrl !== undefined && input.startUrl !== null) options.startUrl = validateHttpUrl(input.startUrl, 'startUrl');
  if (input.outputSchema !== undefined && input.outputSchema !== null) options.outputSchema = validateOutputSchema(input.outputSchema);
  const profile = validateProfileName(input.profile);
  if (profile) options.profile = profile;
  const maxTokens = optionalInteger(input.maxTokens, 'maxTokens', 1, MAX_TOKENS_LIMIT);
  if (maxTokens !== undefined) options.maxTokens = maxTokens;
  const maxCostUsd = optionalAmount(input.maxCostUsd, 'maxCostUsd', MAX_COST_LIMIT);
  if (maxCostUsd !== undefined) options.maxCostUsd = maxCostUsd;
  const webhookUrl =
    input.webhookUrl !== undefined && input.webhookUrl !== null ? validateHttpUrl(input.webhookUrl, 'webhookUrl') : undefined;
  const name = validateTaskName(input.name) ?? undefined;
  const secrets = validateSecrets(input.secrets) ?? undefined;
  return {
    task,
    agent: agent as string,
    tools,
    options,
    ...(name ? { name } : {}),
    ...(webhookUrl ? { webhookUrl } : {}),
    ...(secrets ? { secrets } : {}),
  };
}

/** A task's name: trimmed, at most MAX_TASK_NAME characters; null when absent or blank (the default name). */
export function validateTaskName(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid('name', 'must be a string');
  const name = value.replace(/\s+/g, ' ').trim();
  if (name.length > MAX_TASK_NAME) throw invalid('name', `must be at most ${MAX_TASK_NAME} characters (got ${name.length})`);
  return name || null;
}

function optionalInteger(value: unknown, field: string, min: number, max: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(field, `must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** A positive number of at most `max` (an amount of money). */
function optionalAmount(value: unknown, field: string, max: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > max) {
    throw invalid(field, `must be a number greater than 0 and at most ${max}`);
  }
  return value;
}

/** An absolute http(s) URL of at most 2048 characters (startUrl, webhookUrl, a key's default webhookUrl). */
export function validateHttpUrl(value: unknown, field: string): string {
  const checked = checkHttpUrl(value);
  if ('rule' in checked) throw invalid(field, checked.rule);
  return checked.href;
}

export function validateTools(value: unknown): FunctionTool[] {
  if (!Array.isArray(value)) throw invalid('tools', 'must be an array');
  if (value.length > MAX_TOOLS) throw invalid('tools', `must have at most ${MAX_TOOLS} items (got ${value.length})`);
  const seen = new Set<string>();
  return value.map((tool, i) => {
    const at = `tools[${i}]`;
    const valid = validateTool(tool, at);
    const name = valid.function.name;
    if (seen.has(name)) throw invalid(`${at}.function.name`, `must be unique in the list ("${name}" appears twice)`);
    seen.add(name);
    return valid;
  });
}

/** One caller tool (the rules of create's `tools[]`); failures name the field under `at`. */
export function validateTool(tool: unknown, at: string): FunctionTool {
  if (!isPlainObject(tool)) throw invalid(at, 'must be an object {type: "function", function: {...}}');
  if (tool.type !== 'function') throw invalid(`${at}.type`, 'must be "function"');
  const fn = tool.function;
  if (!isPlainObject(fn)) throw invalid(`${at}.function`, 'must be an object with a name');
  if (fn.name === undefined || fn.name === null) throw invalid(`${at}.function.name`, 'is required');
  if (typeof fn.name !== 'string' || !NAME_RULE.test(fn.name)) {
    throw invalid(`${at}.function.name`, 'must match ^[A-Za-z0-9_-]{1,64}$');
  }
  if (isBuiltInName(fn.name)) throw invalid(`${at}.function.name`, `must not be the name of a built-in browser action ("${fn.name}")`);
  if (fn.description !== undefined && fn.description !== null && typeof fn.description !== 'string') {
    throw invalid(`${at}.function.description`, 'must be a string');
  }
  const result: FunctionTool = { type: 'function', function: { name: fn.name } };
  if (typeof fn.description === 'string') result.function.description = fn.description;
  if (fn.parameters !== undefined && fn.parameters !== null) {
    result.function.parameters = validateParameters(fn.parameters, `${at}.function.parameters`);
  }
  return result;
}

const ajv = new Ajv({ strict: false, allErrors: false });

function validateParameters(schema: unknown, at: string): Record<string, unknown> {
  if (!isPlainObject(schema)) throw invalid(at, 'must be a JSON Schema object');
  if (schema.type !== 'object') throw invalid(`${at}.type`, 'must be "object"');
  checkSchema(schema, at, 0);
  // Against the meta-schema only: compiling would cache every caller's schema for the process's life.
  if (!ajv.validateSchema(schema)) {
    const error = ajv.errors?.[0];
    throw invalid(`${at}${(error?.instancePath ?? '').replace(/\//g, '.')}`, `is not valid JSON Schema: ${error?.message ?? 'invalid'}`);
  }
  return schema;
}

export const MAX_OUTPUT_SCHEMA_CHARS = 20_000;

/** Any JSON Schema (draft 2020-12 keywords ajv knows) of at most MAX_OUTPUT_SCHEMA_CHARS, compilable. */
function validateOutputSchema(schema: unknown): Record<string, unknown> {
  if (!isPlainObject(schema)) throw invalid('outputSchema', 'must be a JSON Schema object');
  const size = JSON.stringify(schema).length;
  if (size > MAX_OUTPUT_SCHEMA_CHARS)
    throw invalid('outputSchema', `must be at most ${MAX_OUTPUT_SCHEMA_CHARS} characters of JSON (got ${size})`);
  if (!ajv.validateSchema(schema)) {
    const error = ajv.errors?.[0];
    throw invalid(
      `outputSchema${(error?.instancePath ?? '').replace(/\//g, '.')}`,
      `is not valid JSON Schema: ${error?.message ?? 'invalid'}`,
    );
  }
  try {
    // A fresh instance: compiling into the shared one would keep every caller's schema for good.
    compileOutputSchema(schema);
  } catch (error) {
    throw invalid('outputSchema', `cannot be used: ${(error as Error).message}`);
  }
  return schema;
}

/** The validator of a task's outputSchema. */
export function compileOutputSchema(schema: Record<string, unknown>) {
  return new Ajv({ strict: false, allErrors: true }).compile(schema);
}

function checkSchema(schema: unknown, at: string, depth: number): void {
  if (depth > MAX_SCHEMA_DEPTH) throw invalid(at, `nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
  if (!isPlainObject(schema)) throw invalid(at, 'must be a JSON Schema object');
  if (!ARGUMENT_TYPES.includes(schema.type as string)) throw invalid(`${at}.type`, `must be one of ${ARGUMENT_TYPES.join(', ')}`);
  if (schema.description !== undefined && typeof schema.description !== 'string') throw invalid(`${at}.description`, 'must be a string');
  if (schema.enum !== undefined && (!Array.isArray(schema.enum) || schema.enum.length === 0)) {
    throw invalid(`${at}.enum`, 'must be a non-empty array');
  }
  if (schema.type === 'array') {
    if (schema.items === undefined) throw invalid(`${at}.items`, 'is required for type "array"');
    checkSchema(schema.items, `${at}.items`, depth + 1);
  }
  if (schema.type === 'object') {
    if (schema.properties !== undefined) {
      if (!isPlainObject(schema.properties)) throw invalid(`${at}.properties`, 'must be an object mapping names to schemas');
      for (const [name, property] of Object.entries(schema.properties)) checkSchema(property, `${at}.properties.${name}`, depth + 1);
    }
    if (schema.required !== undefined) {
      const names = schema.properties && isPlainObject(schema.properties) ? Object.keys(schema.properties) : [];
      if (!Array.isArray(schema.required) || schema.required.some((n) => typeof n !== 'string')) {
        throw invalid(`${at}.required`, 'must be an array of property names');
      }
      const unknown = schema.required.find((n) => !names.includes(n as string));
      if (unknown !== undefined) throw invalid(`${at}.required`, `names "${unknown}", which is not in properties`);
    }
  }
}

/** A short one-line name for lists: the name the owner gave it, or else the task's first line, at most 80 characters. */
export function readableName(task: string, name?: string | null): string {
  if (name) return name;
  const line = task.split('\n').find((l) => l.trim()) ?? task;
  const text = line.replace(/\s+/g, ' ').trim();
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
