// The task settings: defaults, and a clear refusal of bad values.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('task settings', () => {
  it('has working defaults', () => {
    const { tasks } = loadConfig({});
    expect(tasks).toMatchObject({
      workers: 2,
      chromiumPath: '/usr/bin/chromium',
      llmBaseUrl: undefined,
      maxSteps: 30,
      allowPrivateNetwork: false,
      allowedHosts: [],
      heartbeatMs: 2000,
      staleAfterMs: 30_000,
      maxResumes: 1,
    });
  });

  it('reads lists and trims the LLM base URL', () => {
    const { tasks } = loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1/', TASK_ALLOWED_HOSTS: ' Intranet.example , 10.0.0.5:8080 ' });
    expect(tasks.llmBaseUrl).toBe('http://127.0.0.1:11434/v1');
    expect(tasks.allowedHosts).toEqual(['intranet.example', '10.0.0.5:8080']);
  });

  it.each([
    [{ LLM_BASE_URL: 'api.openai.com' }, 'LLM_BASE_URL must be an http(s) URL'],
    [{ TASK_WORKERS: '-1' }, 'TASK_WORKERS must be an integer from 0 to 64'],
    [{ TASK_ALLOW_PRIVATE_NETWORK: 'maybe' }, 'TASK_ALLOW_PRIVATE_NETWORK must be true or false'],
    [{ TASK_HEARTBEAT_MS: '5000', TASK_STALE_AFTER_MS: '10000' }, 'TASK_STALE_AFTER_MS must be at least 3 × TASK_HEARTBEAT_MS (15000)'],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
