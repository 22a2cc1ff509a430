// Vision: with LLM_VISION on, each observation sent to the model carries a JPEG of the viewport
// (scaled to at most VISION_MAX_WIDTH, at most VISION_MAX_BYTES) as an image_url part beside the
// element list, with the element numbers drawn on it by an overlay that is gone from the page after
// the shot. Off (or auto with a model not known to take images), no picture is sent. The scripted
// model cannot read pictures: the plumbing is what is asserted.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { VISION_MAX_BYTES, VISION_MAX_WIDTH, visionEnabled, VISION_MODELS } from '../../src/tasks/vision.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';
import { createTask, ended, runResult, taskText, useTaskFixtures, waitForRun } from '../support/tasks.js';

/** The width and height in a JPEG's start-of-frame segment. */
function jpegSize(jpeg: Buffer): { width: number; height: number } {
  expect(jpeg.subarray(0, 2).toString('hex')).toBe('ffd8');
  for (let at = 2; at + 9 < jpeg.length;) {
    expect(jpeg[at]).toBe(0xff);
    const marker = jpeg[at + 1];
    if (marker >= 0xc0 && marker <= 0xc3) return { height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7) };
    at += 2 + jpeg.readUInt16BE(at + 2);
  }
  throw new Error('no start-of-frame segment');
}

const lastObservation = (body: any) => body.messages[body.messages.length - 1];

describe.each(DATABASE_KINDS)('vision on %s', (kind) => {
  const fx = useTaskFixtures(() => ({ LLM_VISION: 'on' }));
  const api = useTestServer(kind, fx.env);

  it('sends a bounded JPEG with the element numbers drawn by an overlay that is removed after the shot', async () => {
    fx.llm.define('vision', [
      { call: 'scroll', args: { direction: 'down' } },
      { call: 'done', args: { output: 'seen' } },
    ]);
    const task = taskText('vision', 'Read the number on the canvas');
    const taskId = await createTask(api, { task, startUrl: `${fx.pages.url}/canvas` });
    await waitForRun(api, taskId, ended);
    expect((await runResult(api, taskId)).status).toBe('completed');

    const [first, second] = fx.llm.requestsOf(task).map((r) => r.body);
    const view = lastObservation(first);
    expect(view.role).toBe('user');
    const [text, image] = view.content;
    expect(text.type).toBe('text');
    expect(text.text).toMatch(/^Step 1/);
    expect(image.type).toBe('image_url');
    const url: string = image.image_url.url;
    expect(url.startsWith('data:image/jpeg;base64,')).toBe(true);
    const jpeg = Buffer.from(url.slice('data:image/jpeg;base64,'.length), 'base64');
    expect(jpeg.length).toBeLessThanOrEqual(VISION_MAX_BYTES);
    const size = jpegSize(jpeg);
    expect(size.width).toBeLessThanOrEqual(VISION_MAX_WIDTH);
    expect(size.width / size.height).toBeCloseTo(1280 / 800, 1);

    // The page logged the overlay's numbers as it was drawn, and its removal: the agent read that
    // log in its next observation. The numbers are those of the element list sent with the picture.
    const listed = [...text.text.matchAll(/^\[(\d+)\]/gm)].map((m) => Number(m[1]));
    expect(listed.length).toBeGreaterThan(1);
    const next = lastObservation(second).content;
    const log = /overlay drawn: ([\d,]*); removed: (\w+)/.exec(next[0].text);
    expect(log, next[0].text).not.toBeNull();
    expect(log![1].split(',').map(Number)).toEqual(listed);
    expect(log![2]).toBe('yes');
    // Only the latest observation carries a picture: earlier ones stay text in the conversation.
    const pictures = second.messages.filter((m: any) => Array.isArray(m.content));
    expect(pictures).toHaveLength(1);
  });
});

describe.each(DATABASE_KINDS)('vision off on %s', (kind) => {
  // auto, with a model name not in the list of models known to take images.
  const fx = useTaskFixtures(() => ({ LLM_VISION: 'auto' }));
  const api = useTestServer(kind, fx.env);

  it('sends the element list alone', async () => {
    fx.llm.define('blind', [{ call: 'done', args: { output: 'text only' } }]);
    const task = taskText('blind');
    const taskId = await createTask(api, { task, startUrl: `${fx.pages.url}/canvas` });
    await waitForRun(api, taskId, ended);
    const [request] = fx.llm.requestsOf(task);
    expect(typeof lastObservation(request.body).content).toBe('string');
    expect(JSON.stringify(request.body)).not.toContain('image_url');
  });
});

describe('LLM_VISION=auto', () => {
  it('knows models that take images by name', () => {
    for (const model of [
      'gpt-4o-mini',
      'GPT-4.1',
      'claude-3-5-sonnet-latest',
      'claude-sonnet-4-5',
      'gemini-2.0-flash',
      'qwen2.5-vl:7b',
      'llava:13b',
    ])
      expect(visionEnabled('auto', model, VISION_MODELS), model).toBe(true);
    for (const model of ['fake-model', 'qwen2.5:7b', 'gpt-3.5-turbo', 'llama3.1:8b'])
      expect(visionEnabled('auto', model, VISION_MODELS), model).toBe(false);
    expect(visionEnabled('on', 'fake-model', VISION_MODELS)).toBe(true);
    expect(visionEnabled('off', 'gpt-4o', VISION_MODELS)).toBe(false);
  });

  it('is read from the environment: a list of its own, or a clear error', () => {
    expect(loadConfig({ LLM_MODEL: 'gpt-4o-mini' }).tasks.vision).toBe(true);
    expect(loadConfig({ LLM_MODEL: 'gpt-4o-mini', LLM_VISION: 'off' }).tasks.vision).toBe(false);
    expect(loadConfig({ LLM_MODEL: 'my-model', LLM_VISION_MODELS: 'other, my-*' }).tasks.vision).toBe(true);
    expect(() => loadConfig({ LLM_VISION: 'maybe' })).toThrow(new ConfigError('LLM_VISION must be auto, on or off (got "maybe")'));
  });
});
