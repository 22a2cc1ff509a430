// A scripted stand-in for an OpenAI-compatible LLM: POST /chat/completions on 127.0.0.1. Each task
// names its scenario in its text ("[scenario:NAME]", or as `scenarioOf` reads it); the reply to a request is the scenario's
// script entry for the step the conversation is at (the number of assistant messages so far), so
// a resumed run simply continues its script. Every request is recorded.
import { once } from 'node:events';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  | { call: string; args?: Record<string, unknown>; say?: string; tokens?: number } // one function call, after `say` as the message's text; `tokens` as its usage
  | { message: Record<string, unknown> } // a raw assistant message (for malformed replies)
  | { status: number; body?: string } // an HTTP error
  | { hang: true }; // no answer until the client gives up

export interface StepContext {
  step: number;
  /** Retries of this step so far (after a reply the agent could not use). */
  attempt: number;
  /** How many earlier requests of the same task asked for this step (and attempt). */
  seen: number;
  /** The latest page observation the agent sent. */
  page: string;
  /** The number of the element whose listing line matches. */
  element(match: RegExp | string): number;
  /** The content of the latest tool result message. */
  lastToolResult: string | undefined;
  /** Every message's text so far, one after another. */
  conversation: string;
}

export type Script = Reply | ((context: StepContext) => Reply);

export interface RecordedRequest {
  scenario: string;
  task: string;
  step: number;
  attempt: number;
  body: any;
  headers: IncomingHttpHeaders;
  /** Set when the client closed the connection before an answer (an aborted call). */
  aborted: boolean;
  answered: boolean;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export interface FakeLlm {
  url: string;
  requests: RecordedRequest[];
  define(scenario: string, steps: Script[]): void;
  requestsOf(task: string): RecordedRequest[];
  close(): Promise<void>;
}

/** A message's text: its content, or the text parts of a content array (an observation with a picture). */
export function textOf(content: unknown): string {
  if (Array.isArray(content))
    return content
      .filter((part) => part?.type === 'text')
      .map((part) => part.text)
      .join('\n');
  return typeof content === 'string' ? content : '';
}

function lastContent(messages: any[], role: string): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === role) return textOf(messages[i].content);
  return undefined;
}

export interface FakeLlmOptions {
  /** The scenario a task's text (the "Task: …" message) names; by default its "[scenario:NAME]" tag. */
  scenarioOf?: (task: string) => string;
  /** The usage reported for a reply that names no `tokens`; by default none is reported. */
  tokensOf?: (body: any) => number;
}

const taggedScenario = (task: string) => /\[scenario:([\w-]+)\]/.exec(task)?.[1] ?? '';

export async function startFakeLlm({ scenarioOf = taggedScenario, tokensOf }: FakeLlmOptions = {}): Promise<FakeLlm> {
  const scenarios = new Map<string, Script[]>();
  const requests: RecordedRequest[] = [];
  const hanging = new Set<http.ServerResponse>();

  const server = http.createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end('not found');
      return;
    }
    const body = JSON.parse(text);
    const messages: any[] = body.messages ?? [];
    const task = messages.find((m) => m.role === 'user' && String(m.content).startsWith('Task:'))?.content ?? '';
    const scenario = scenarioOf(task);
    const step = messages.filter((m) => m.role === 'assistant').length;
    const lastAssistant = messages.map((m) => m.role).lastIndexOf('assistant');
    const attempt = messages
      .slice(lastAssistant + 1)
      .filter((m) => m.role === 'user' && String(m.content).startsWith('Your previous reply could not be used')).length;
    const seen = requests.filter((r) => r.task === task && r.step === step && r.attempt === attempt).length;
    const record: RecordedRequest = {
      scenario,
      task,
      step,
      attempt,
      body,
      headers: req.headers,
      aborted: false,
      answered: false,
      at: Date.now(),
    };
    requests.push(record);
    res.on('close', () => {
      if (!record.answered) record.aborted = true;
      hanging.delete(res);
    });

    const page = textOf([...messages].reverse().find((m) => m.role === 'user' && textOf(m.content).startsWith('Step '))?.content);
    const context: StepContext = {
      step,
      attempt,
      seen,
      page,
      lastToolResult: lastContent(messages, 'tool'),
      conversation: messages.map((m) => textOf(m.content)).join('\n'),
      element(match) {
        const line = page
          .split('\n')
          .find((l: string) => /^\[\d+\]/.test(l) && (typeof match === 'string' ? l.includes(match) : match.test(l)));
        if (!line) throw new Error(`no element matching ${match} on the page:\n${page}`);
        return Number(/^\[(\d+)\]/.exec(line)![1]);
      },
    };
    let reply: Reply;
    try {
      const script = scenarios.get(scenario)?.[step];
      if (!script) throw new Error(`scenario "${scenario}" has no step ${step}`);
      reply = typeof script === 'function' ? script(context) : script;
    } catch (error) {
      reply = { status: 500, body: `fake LLM: ${(error as Error).message}` };
    }
    if ('hang' in reply) {
      hanging.add(res);
      return;
    }
    record.answered = true;
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.body ?? 'error');
      return;
    }
    const message =
      'message' in reply
        ? reply.message
        : {
            role: 'assistant',
            content: reply.say ?? null,
            tool_calls: [
              {
                id: `call_${step}_${Math.random().toString(36).slice(2, 8)}`,
                type: 'function',
                function: { name: reply.call, arguments: JSON.stringify(reply.args ?? {}) },
              },
            ],
          };
    res.writeHead(200, { 'content-type': 'application/json' });
    const tokens = 'call' in reply ? (reply.tokens ?? tokensOf?.(body)) : undefined;
    const usage = tokens ? { usage: { prompt_tokens: tokens - 1, completion_tokens: 1, total_tokens: tokens } } : {};
    res.end(
      JSON.stringify({
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, finish_reason: 'tool_calls', message }],
        ...usage,
      }),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    define: (scenario, steps) => void scenarios.set(scenario, steps),
    requestsOf: (task) => requests.filter((r) => r.task.includes(task)),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
