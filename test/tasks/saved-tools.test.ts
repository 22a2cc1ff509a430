// Saved tool definitions over GraphQL: the built-in form_input offered to every key, saving,
// changing and deleting one's own definitions under create's `tools` rules, and nobody else's.
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { FORM_INPUT_TOOL } from '../support/tasks.js';

const LIST = `query { savedTools { id name builtIn definition createdAt updatedAt } }`;
const SAVE = `mutation ($tool: JSON!) { saveTool(tool: $tool) { id name builtIn definition createdAt } }`;
const UPDATE = `mutation ($id: ID!, $tool: JSON!) { updateSavedTool(id: $id, tool: $tool) { id name definition } }`;
const DELETE = `mutation ($id: ID!) { deleteSavedTool(id: $id) { id name } }`;

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  type: 'function',
  function: { name, description: `The ${name} tool`, parameters: { type: 'object', properties: { q: { type: 'string' } } }, ...extra },
});

describe.each(DATABASE_KINDS)('saved tool definitions on %s', (kind) => {
  const api = useTestServer(kind);

  it('offers the built-in form_input to every key, the definition the test support uses', async () => {
    for (const key of [ADMIN_KEY, api.keys.subscriber]) {
      const { data, errors } = await api.graphql(LIST, {}, key);
      expect(errors).toBeUndefined();
      expect(data.savedTools[0]).toEqual({
        id: 'builtin:form_input',
        name: 'form_input',
        builtIn: true,
        definition: FORM_INPUT_TOOL,
        createdAt: null,
        updatedAt: null,
      });
    }
    // And it is a valid create `tools` item as it stands.
    const created = await api.request('POST', '/api/v1/task/create', {
      key: ADMIN_KEY,
      body: { task: 'Ask me', tools: [FORM_INPUT_TOOL] },
    });
    expect(created.status).toBe(200);
    const anonymous = await api.graphql(LIST);
    expect(anonymous.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it("saves, lists, changes and deletes the caller's own definitions", async () => {
    const key = api.keys.author;
    // Listed before and right after a save (a kept answer to the first list must not be served again).
    expect((await api.graphql(LIST, {}, key)).data.savedTools.map((t: any) => t.name)).toEqual(['form_input']);
    const saved = await api.graphql(SAVE, { tool: { ...tool('lookup'), function: { ...tool('lookup').function, extra: 'dropped' } } }, key);
    expect(saved.errors).toBeUndefined();
    expect(saved.data.saveTool).toMatchObject({
      name: 'lookup',
      builtIn: false,
      definition: tool('lookup'),
      createdAt: expect.any(String),
    });
    const id = saved.data.saveTool.id;
    await api.graphql(SAVE, { tool: tool('approve') }, key);

    let list = (await api.graphql(LIST, {}, key)).data.savedTools;
    expect(list.map((t: any) => t.name)).toEqual(['form_input', 'approve', 'lookup']);

    const taken = await api.graphql(SAVE, { tool: tool('lookup') }, key);
    expect(taken.errors?.[0]).toMatchObject({
      message: 'You already have a saved tool named "lookup"; change that one or choose another name.',
      extensions: { code: 'CONFLICT' },
    });
    const renamedOntoOther = await api.graphql(UPDATE, { id, tool: tool('approve') }, key);
    expect(renamedOntoOther.errors?.[0].extensions.code).toBe('CONFLICT');

    const changed = await api.graphql(UPDATE, { id, tool: tool('search', { description: 'Search the catalogue' }) }, key);
    expect(changed.errors).toBeUndefined();
    expect(changed.data.updateSavedTool).toEqual({
      id,
      name: 'search',
      definition: tool('search', { description: 'Search the catalogue' }),
    });
    list = (await api.graphql(LIST, {}, key)).data.savedTools;
    expect(list.map((t: any) => t.name)).toEqual(['form_input', 'approve', 'search']);

    // A saved definition is a create `tools` item as it stands.
    const created = await api.request('POST', '/api/v1/task/create', {
      key,
      body: { task: 'Use my tools', tools: list.map((t: any) => t.definition) },
    });
    expect(created.status, created.text).toBe(200);

    expect((await api.graphql(DELETE, { id }, key)).data.deleteSavedTool).toEqual({ id, name: 'search' });
    list = (await api.graphql(LIST, {}, key)).data.savedTools;
    expect(list.map((t: any) => t.name)).toEqual(['form_input', 'approve']);
    expect((await api.graphql(DELETE, { id }, key)).errors?.[0].extensions.code).toBe('NOT_FOUND');
  });

  it('checks a definition with the rules of create `tools`, naming the field', async () => {
    const key = api.keys.editor;
    const cases: Array<[unknown, string, string]> = [
      [5, 'tool', 'tool must be an object {type: "function", function: {...}}'],
      [{ type: 'tool', function: { name: 'a' } }, 'tool.type', 'tool.type must be "function"'],
      [{ type: 'function', function: {} }, 'tool.function.name', 'tool.function.name is required'],
      [tool('has space'), 'tool.function.name', 'tool.function.name must match ^[A-Za-z0-9_-]{1,64}$'],
      [tool('click'), 'tool.function.name', 'tool.function.name must not be the name of a built-in browser action ("click")'],
      [
        tool('form_input'),
        'tool.function.name',
        'tool.function.name must not be "form_input": that definition is built in (pick it from the list instead)',
      ],
      [
        tool('x', { parameters: { type: 'object', properties: { when: { type: 'date' } } } }),
        'tool.function.parameters.properties.when.type',
        'tool.function.parameters.properties.when.type must be one of string, number, integer, boolean, array, object',
      ],
    ];
    for (const [definition, field, message] of cases) {
      const { errors } = await api.graphql(SAVE, { tool: definition }, key);
      expect(errors?.[0], JSON.stringify(definition)).toMatchObject({
        message,
        extensions: { code: 'INVALID_INPUT', params: { [field]: message } },
      });
    }
    // The same definition is refused by create with the same rule.
    const create = await api.request('POST', '/api/v1/task/create', { key, body: { task: 'go', tools: [tool('has space')] } });
    expect(create.json.error).toBe('tools[0].function.name must match ^[A-Za-z0-9_-]{1,64}$');
    expect((await api.graphql(LIST, {}, key)).data.savedTools.map((t: any) => t.name)).toEqual(['form_input']);
  });

  it("never shows nor changes another user's definitions", async () => {
    const mine = (await api.graphql(SAVE, { tool: tool('private_tool') }, api.keys.contributor)).data.saveTool;
    // Another user may save the same name for themselves.
    const theirs = await api.graphql(SAVE, { tool: tool('private_tool') }, api.keys.subscriber);
    expect(theirs.errors).toBeUndefined();
    expect(theirs.data.saveTool.id).not.toBe(mine.id);

    for (const key of [api.keys.subscriber, ADMIN_KEY]) {
      const list = (await api.graphql(LIST, {}, key)).data.savedTools;
      expect(list.some((t: any) => t.id === mine.id)).toBe(false);
      const update = await api.graphql(UPDATE, { id: mine.id, tool: tool('hijacked') }, key);
      expect(update.errors?.[0]).toMatchObject({ message: `No saved tool with id "${mine.id}".`, extensions: { code: 'NOT_FOUND' } });
      expect((await api.graphql(DELETE, { id: mine.id }, key)).errors?.[0].extensions.code).toBe('NOT_FOUND');
    }
    const still = (await api.graphql(LIST, {}, api.keys.contributor)).data.savedTools;
    expect(still.find((t: any) => t.id === mine.id)).toMatchObject({ name: 'private_tool', definition: tool('private_tool') });

    // The built-in definition cannot be changed or deleted.
    const builtIn = await api.graphql(UPDATE, { id: 'builtin:form_input', tool: tool('other') }, api.keys.contributor);
    expect(builtIn.errors?.[0]).toMatchObject({
      message: 'The built-in tool "form_input" cannot be changed.',
      extensions: { code: 'INVALID_INPUT' },
    });
    expect((await api.graphql(DELETE, { id: 'builtin:form_input' }, api.keys.contributor)).errors?.[0].extensions.code).toBe(
      'INVALID_INPUT',
    );
  });
});
