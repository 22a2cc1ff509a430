// What the agent is told: the system prompt, the task, and notes when a run resumes.
import type { FunctionTool } from './actions.js';
import type { ChatMessage } from './llm.js';

export interface PromptExtras {
  /** How to type the task's secrets (secrets.ts). */
  secrets?: string;
  outputSchema?: Record<string, unknown>;
  /** The task's files, for upload_file. */
  files?: Array<{ name: string; mimeType: string; size: number }>;
}

export function systemPrompt(callerTools: FunctionTool[], { secrets, outputSchema, files = [] }: PromptExtras = {}): ChatMessage {
  const lines = [
    "You are a browser agent. You carry out the user's task in a Chromium tab by calling functions, one call per reply.",
    'Each turn you receive the current page: its URL, title, its visible interactive elements numbered like [3], and an excerpt of its text.',
    'Refer to elements by their number in the latest listing; numbers change when the page changes.',
    'Pages embedded in frames (iframes: payment, sign-in, consent forms…) are listed under "Frames", their elements numbered in the same sequence as the page\'s: act on them by number like on any other.',
    `Built-in actions: navigate, click, type, select, scroll, back, switch_tab, close_tab, wait, ${files.length ? 'upload_file, ' : ''}extract (collects table rows into the result), done.`,
    "A file the site sends (a download link, a URL that answers with a file) is kept with the run's result; the action's result says so.",
    'A page the site opens in a new tab (a link with target=_blank, window.open) becomes the current tab; when more than one tab is open they are listed as "Tab N", the current one marked: switch_tab and close_tab take that number.',
    'When the task is complete call done with the final answer in `output` and any rows of data in `dataTable`.',
    'If the task cannot be done, call done with success false and say why in `output`.',
    'Only http and https pages can be opened; some addresses are blocked by policy.',
  ];
  if (callerTools.length) {
    lines.push(
      `The user's application also offers these functions: ${callerTools.map((t) => t.function.name).join(', ')}.`,
      'Calling one pauses the task until the user answers; the answer comes back as the function result. Use them when you need something only the user knows.',
    );
  }
  if (secrets) lines.push(secrets);
  if (files.length) {
    const listed = files.map((f) => `${JSON.stringify(f.name)} (${f.mimeType}, ${f.size} bytes)`).join(', ');
    lines.push(
      `The user gave these files to upload where the task needs them: ${listed}. upload_file puts one into a file input (file inputs are listed even when the page hides them behind a styled button).`,
    );
  }
  if (outputSchema) {
    lines.push(
      `The user wants structured output: the \`output\` of done must be a JSON value (not text describing it) that validates against this JSON Schema: ${JSON.stringify(outputSchema)}`,
    );
  }
  return { role: 'system', content: lines.join('\n') };
}

export function taskMessage(task: string, startUrl?: string): ChatMessage {
  return { role: 'user', content: `Task: ${task}${startUrl ? `\n(The browser starts at ${startUrl}.)` : ''}` };
}

export function resumeNote(url: string, interrupted: boolean): ChatMessage {
  const where = url && url !== 'about:blank' ? `reopened at ${url}` : 'reopened on a blank page';
  return {
    role: 'user',
    content: interrupted
      ? `(The run was interrupted and resumed: the browser was ${where}. Your last action may not have taken effect; check the page.)`
      : `(While waiting for the answer the browser was ${where}; text typed but not submitted may be gone.)`,
  };
}
