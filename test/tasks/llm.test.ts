// The LLM client against the scripted stand-in, without a server: retries, clear failures, aborts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ACTIONS, checkActionArguments } from '../../src/tasks/actions.js';
import { decide, LlmClient, LlmError, type ChatMessage } from '../../src/tasks/llm.js';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.js';

describe('LLM client', () => {
  let llm: FakeLlm;
  beforeAll(async () => {
    llm = await startFakeLlm();
  });
  afterAll(() => llm?.close());

  const ask = (
    scenario: string,
    client = new LlmClient({ baseUrl: llm.url, model: 'm', timeoutMs: 2000 }),
    signal = new AbortController().signal,
  ) => {
    const messages: ChatMessage[] = [{ role: 'user', content: `Task: unit [scenario:${scenario}]` }];
    return decide(client, messages, BUILT_IN_ACTIONS, checkActionArguments, signal);
  };

  it('returns the call, with arguments coerced to the action schema', async () => {
    llm.define('coerce', [{ call: 'click', args: { element: '4' } }]);
    const { call, assistant } = await ask('coerce');
    expect(call).toMatchObject({ name: 'click', arguments: { element: 4 } });
    expect(assistant.tool_calls?.[0].function).toEqual({ name: 'click', arguments: '{"element":4}' });
  });

  it('retries once after a server error, then succeeds', async () => {
    llm.define('flaky', [(c) => (c.attempt === 0 ? { status: 503, body: 'busy' } : { call: 'done', args: { output: 'fine' } })]);
    expect((await ask('flaky')).call.name).toBe('done');
  });

  it('fails clearly on arguments that do not fit, twice', async () => {
    llm.define('no-element', [{ call: 'click', args: {} }]);
    await expect(ask('no-element')).rejects.toThrow(
      "the LLM gave no usable function call twice in a row; last problem: arguments of click: missing property 'element'",
    );
  });

  it('names the address when the LLM cannot be reached', async () => {
    const client = new LlmClient({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 2000 });
    const error = (await ask('any', client).catch((e) => e)) as LlmError;
    expect(error).toBeInstanceOf(LlmError);
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/^could not reach the LLM at http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions: /);
  });

  it('gives up on a call that takes longer than its timeout, and stops at once when aborted', async () => {
    llm.define('silent', [{ hang: true }]);
    const quick = new LlmClient({ baseUrl: llm.url, model: 'm', timeoutMs: 300 });
    await expect(ask('silent', quick)).rejects.toMatchObject({
      kind: 'timeout',
      message: 'the LLM did not answer within 0.3 s (LLM_TIMEOUT_MS)',
    });
    const controller = new AbortController();
    const pending = ask('silent', undefined, controller.signal);
    setTimeout(() => controller.abort(), 100);
    // 'aborted', not 'timeout': the call ended on the signal, long before its own time limit.
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
  });
});
