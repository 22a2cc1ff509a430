// The built-in browser actions the agent may call, as OpenAI-style function tools. Their schemas
// are what the LLM is shown; the validators also accept common slips (numbers sent as strings).
import { Ajv } from 'ajv';

export interface FunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

const element = { type: 'integer', minimum: 1, description: 'The number of the element in the current page listing, e.g. 3 for [3].' };

const ACTIONS: Array<[string, string, Record<string, unknown>, string[]]> = [
  [
    'navigate',
    'Open a URL (http or https) in the current tab.',
    { url: { type: 'string', description: 'The absolute URL to open.' } },
    ['url'],
  ],
  ['click', 'Click an element of the current page.', { element }, ['element']],
  [
    'type',
    'Replace the text of an input, textarea or editable element; optionally press Enter afterwards.',
    {
      element,
      text: { type: 'string', description: 'The text to enter.' },
      submit: { type: 'boolean', description: 'Press Enter after typing.' },
    },
    ['element', 'text'],
  ],
  [
    'select',
    'Choose an option of a <select> element, by its visible label or its value.',
    { element, option: { type: 'string', description: 'The option label or value.' } },
    ['element', 'option'],
  ],
  [
    'scroll',
    'Scroll the page.',
    {
      direction: { type: 'string', enum: ['up', 'down'], description: 'Which way.' },
      pages: { type: 'number', minimum: 0.1, maximum: 10, description: 'How far, in screen heights (default 1).' },
    },
    ['direction'],
  ],
  ['back', 'Go back to the previous page of this tab.', {}, []],
  [
    'switch_tab',
    'Make another open tab the current one (tabs are listed with the page when more than one is open).',
    { tab: { type: 'integer', minimum: 1, description: 'The number of the tab in the listing, e.g. 2 for "Tab 2".' } },
    ['tab'],
  ],
  [
    'close_tab',
    'Close a tab (default: the current one); the newest tab left becomes the current one. The last tab cannot be closed.',
    { tab: { type: 'integer', minimum: 1, description: 'The number of the tab in the listing (default: the current tab).' } },
    [],
  ],
  [
    'wait',
    'Wait for the page to change (at most 10 seconds).',
    { seconds: { type: 'number', minimum: 0, maximum: 10, description: 'How long.' } },
    ['seconds'],
  ],
  [
    'upload_file',
    "Put one of the task's files into a file input: the element of the input, or of the button that opens the file chooser (default: the page's only file input).",
    {
      file: { type: 'string', description: "The file's name, as the task lists it." },
      element: { ...element, description: 'The number of the file input, or of the button that opens the file chooser.' },
    },
    ['file'],
  ],
  [
    'extract',
    "Read structured data from the page: the rows of the tables (or items of the lists) matched by a CSS selector, each row an object keyed by column header. The rows are added to the run's dataTable and returned to you.",
    { selector: { type: 'string', description: 'CSS selector of a table, list or container (default: every table on the page).' } },
    [],
  ],
  [
    'done',
    'Finish the task. Give the final answer; `dataTable` replaces the rows collected by extract when given.',
    {
      output: { type: 'string', description: 'The final answer for the user.' },
      dataTable: { type: 'array', items: { type: 'object' }, description: 'Rows of data found, each an object.' },
      success: { type: 'boolean', description: 'false when the task could not be done (default true).' },
    },
    ['output'],
  ],
];

export const BUILT_IN_ACTIONS: FunctionTool[] = ACTIONS.map(([name, description, properties, required]) => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties, required } },
}));

export const BUILT_IN_NAMES = ACTIONS.map(([name]) => name);

export function isBuiltInName(name: string): boolean {
  return BUILT_IN_NAMES.includes(name.toLowerCase());
}

const lenient = new Ajv({ coerceTypes: true, useDefaults: true, strict: false, allErrors: false });
const validators = new Map(
  ACTIONS.map(([name, , properties, required]) => {
    // `done` may carry an object as its output, although the LLM is asked for a string.
    const props = name === 'done' ? { ...properties, output: {} } : properties;
    return [name, lenient.compile({ type: 'object', properties: props, required })];
  }),
);

/** Checks (and gently coerces) a built-in action's arguments; returns a reason when they do not fit. */
export function checkActionArguments(name: string, args: Record<string, unknown>): string | null {
  const validate = validators.get(name);
  if (!validate) return `unknown action ${name}`;
  if (validate(args)) return null;
  const error = validate.errors?.[0];
  return `arguments of ${name}: ${error?.instancePath || '(root)'} ${error?.message ?? 'invalid'}`.replace(
    '(root) must have required property',
    'missing property',
  );
}
