// The LLM, through any OpenAI-compatible POST {LLM_BASE_URL}/chat/completions with `tools`.
// One retry for a reply that cannot be used (or a transient failure), then a clear error.
import type { FunctionTool } from './actions.js';

export interface ToolCallMessage {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A part of a user message: text, or a picture (OpenAI's image_url, here a data: URL). */
export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | ContentPart[] | null;
  tool_calls?: ToolCallMessage[];
  tool_call_id?: string;
}

export type LlmErrorKind = 'timeout' | 'aborted' | 'http' | 'network' | 'malformed';

export class LlmError extends Error {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Tokens a call used, as the endpoint's `usage` reports them (0 for what it does not report). */
export interface Usage {
  input: number;
  output: number;
  total: number;
}

export const NO_USAGE: Usage = { input: 0, output: 0, total: 0 };

const addUsage = (a: Usage, b: Usage): Usage => ({ input: a.input + b.input, output: a.output + b.output, total: a.total + b.total });

function readUsage(usage: unknown): Usage {
  const reported = (typeof usage === 'object' && usage !== null ? usage : {}) as Record<string, unknown>;
  const count = (n: unknown) => (typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : 0);
  const input = count(reported.prompt_tokens);
  const output = count(reported.completion_tokens);
  return { input, output, total: Math.max(count(reported.total_tokens), input + output) };
}

/** Told of every LLM call a decision makes: `before` may refuse it (by throwing), `after` gets its usage. */
export interface CallMeter {
  before(): Promise<void>;
  after(usage: Usage): void;
}

export interface LlmSettings {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

/**
 * What is read of a chat-completions answer: an OpenAI-compatible server's JSON, any part of which may
 * be missing or of another type, so each is checked where it is read.
 */
interface ChatCompletion {
  choices?: { message?: AssistantReply }[];
  usage?: unknown;
}

/** The assistant message of a reply, unchecked. */
interface AssistantReply {
  content?: unknown;
  tool_calls?: unknown;
}

/** A tool call as a reply may hold it, unchecked. */
interface ReplyToolCall {
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

export class LlmClient {
  constructor(readonly settings: LlmSettings) {}

  /** One chat-completions call: the assistant message of the first choice, and the tokens it cost (its `usage`). */
  async chat(messages: ChatMessage[], tools: FunctionTool[], signal: AbortSignal): Promise<{ message: AssistantReply; usage: Usage }> {
    const { baseUrl, apiKey, model, timeoutMs } = this.settings;
    const timeout = AbortSignal.timeout(timeoutMs);
    const both = AbortSignal.any([signal, timeout]);
    let status: number;
    let text: string;
    try {
      const response = await fetch(`${baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body: JSON.stringify({ model, messages, tools, tool_choice: 'required' }),
        signal: both,
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (signal.aborted) throw new LlmError('aborted', 'the LLM call was cancelled');
      if (timeout.aborted) throw new LlmError('timeout', `the LLM did not answer within ${timeoutMs / 1000} s (LLM_TIMEOUT_MS)`);
      const cause = (error as { cause?: { message?: string } })?.cause?.message ?? (error as Error).message;
      throw new LlmError('network', `could not reach the LLM at ${baseUrl}/chat/completions: ${cause}`);
    }
    if (status < 200 || status >= 300) {
      throw new LlmError('http', `the LLM server answered HTTP ${status}: ${text.slice(0, 300)}`, status);
    }
    let body: ChatCompletion | null;
    try {
      body = JSON.parse(text) as ChatCompletion | null;
    } catch {
      throw new LlmError('malformed', 'the LLM server answered with something that is not JSON');
    }
    const message = body?.choices?.[0]?.message;
    if (!message || typeof message !== 'object') throw new LlmError('malformed', 'the reply has no choices[0].message');
    return { message, usage: readUsage(body?.usage) };
  }
}

export interface Decision {
  /** The assistant message to keep in the conversation: exactly the one call that will be executed. */
  assistant: ChatMessage;
  call: { id: string; name: string; arguments: Record<string, unknown> };
  /** Tokens the LLM reported for the calls this decision took (0 when it reports none). */
  usage: Usage;
}

/** Returns a reason when the named function's arguments are unusable, null when they are fine. */
export type ArgumentCheck = (name: string, args: Record<string, unknown>) => string | null;

export async function decide(
  llm: LlmClient,
  messages: ChatMessage[],
  tools: FunctionTool[],
  check: ArgumentCheck,
  signal: AbortSignal,
  meter?: CallMeter,
): Promise<Decision> {
  let problem = '';
  let usage = NO_USAGE;
  for (let attempt = 0; attempt < 2; attempt++) {
    const asked = attempt === 0 ? messages : [...messages, correction(problem)];
    let reply: AssistantReply;
    await meter?.before();
    try {
      const answer = await llm.chat(asked, tools, signal);
      reply = answer.message;
      usage = addUsage(usage, answer.usage);
      meter?.after(answer.usage);
    } catch (error) {
      const e = error as LlmError;
      const transient =
        e.kind === 'network' || e.kind === 'malformed' || (e.kind === 'http' && (e.status === 429 || (e.status ?? 0) >= 500));
      if (attempt === 0 && transient) {
        problem = e.message;
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      throw e;
    }
    const parsed = parseReply(reply, tools, check);
    if (typeof parsed !== 'string') return { ...parsed, usage };
    problem = parsed;
  }
  throw new LlmError('malformed', `the LLM gave no usable function call twice in a row; last problem: ${problem}`);
}

function correction(problem: string): ChatMessage {
  return {
    role: 'user',
    content: `Your previous reply could not be used: ${problem}. Reply with exactly one call of one of the listed functions, with JSON arguments that fit its parameters.`,
  };
}

function parseReply(reply: AssistantReply, tools: FunctionTool[], check: ArgumentCheck): Omit<Decision, 'usage'> | string {
  const calls: ReplyToolCall[] = Array.isArray(reply.tool_calls) ? reply.tool_calls : [];
  const first = calls[0];
  if (!first?.function?.name) {
    const said = typeof reply.content === 'string' && reply.content.trim() ? ` (it said: "${reply.content.trim().slice(0, 200)}")` : '';
    return `it contained no function call${said}`;
  }
  const name = String(first.function.name);
  if (!tools.some((t) => t.function.name === name)) return `it called an unknown function "${name}"`;
  let args: unknown = first.function.arguments ?? {};
  if (typeof args === 'string') {
    try {
      args = args.trim() ? JSON.parse(args) : {};
    } catch {
      return `the arguments of ${name} are not valid JSON`;
    }
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return `the arguments of ${name} are not a JSON object`;
  const reason = check(name, args as Record<string, unknown>);
  if (reason) return reason;
  const id = typeof first.id === 'string' && first.id ? first.id : `call_${Math.random().toString(36).slice(2, 10)}`;
  return {
    call: { id, name, arguments: args as Record<string, unknown> },
    assistant: {
      role: 'assistant',
      content: typeof reply.content === 'string' ? reply.content : null,
      tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    },
  };
}
