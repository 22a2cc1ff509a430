// Replay: a task created with `replayOf` repeats the steps of an earlier completed run without the
// LLM. Each step that acted on an element finds it again by its locator (element numbers change
// with the page), never by its old number. When the page no longer matches, or a replayed action
// does not do what it did before, the model takes over from that step with a note of what was done.
import type { Prisma } from '../db/client.js';
import { isBuiltInName } from './actions.js';
import { invalid } from './errors.js';
import type { ElementLocator } from './locator.js';
import type { Observation, PageElement } from './observe.js';
import type { SecretVault } from './secrets.js';
import type { Owner } from './tasks.js';
import { ellipsize } from '../values.js';

export const REPLAY_OF_DOC =
  'The id of a completed run of one of your tasks to replay without the LLM: its actions are repeated, each element found again by its locator; where the page no longer matches, the model takes over from that step. The run records which steps were replayed.';

export interface SourceStep {
  index: number;
  action: string;
  arguments: Record<string, unknown>;
  locator: ElementLocator | null;
  result: string;
}

/** Where a replay stands, kept in the run's state: a resumed run knows what was replayed. */
export interface ReplayState {
  /** The position of the next source step to replay. */
  next: number;
  /** What was replayed, one line each: told to the model if it takes over. */
  done: string[];
}

export type ReplayDecision = { call: { name: string; arguments: Record<string, unknown> }; source: SourceStep } | { takeOver: string };

/** The run `runId` when it is the caller's own and completed: the id to store; otherwise a 400 naming why. */
export async function checkReplayOf(prisma: Prisma, owner: Owner, value: unknown): Promise<string | undefined> {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !value.trim()) throw invalid('replayOf', 'must be the id of a run');
  const run = await prisma.taskRun.findFirst({
    where: { id: value, task: { ownerId: owner.userId } },
    select: { status: true },
  });
  // Another user's run is not told apart from none.
  if (!run) throw invalid('replayOf', `names no run of yours: "${value}"`);
  if (run.status !== 'completed')
    throw invalid('replayOf', `names a run that did not complete (status ${run.status}): only a completed run can be replayed`);
  return value;
}

/** The source run's steps, in order. */
export async function loadSourceSteps(prisma: Prisma, runId: string): Promise<SourceStep[]> {
  const rows = await prisma.taskStep.findMany({
    where: { runId },
    orderBy: { index: 'asc' },
    select: { index: true, action: true, arguments: true, locator: true, result: true },
  });
  return rows.map((row) => ({
    ...row,
    arguments: JSON.parse(row.arguments) as Record<string, unknown>,
    locator: row.locator ? (JSON.parse(row.locator) as ElementLocator) : null,
  }));
}

const FIELDS = ['tag', 'frame', 'type', 'role', 'name', 'label', 'href'] as const;

/** The elements of the page that fit `locator` on every field it has (absent fields must be absent). */
const fitting = (elements: PageElement[], locator: ElementLocator, fields: readonly (typeof FIELDS)[number][]) =>
  elements.filter((e) => fields.every((f) => (f === 'label' ? e.label || undefined : e[f]) === locator[f]));

/**
 * The number of the one element of the page that the locator describes. Exact first; then, for an
 * element renamed or relinked, one that agrees on all but its label (a field keeps its name
 * attribute) or all but its href (a link's URL may carry a session's token).
 */
export function findElement(observation: Observation, locator: ElementLocator): number | string {
  const exact = fitting(observation.elements, locator, FIELDS);
  if (exact.length === 1) return exact[0].id;
  if (exact.length > 1) return `${exact.length} elements of the page fit the step's element (${describe(locator)})`;
  for (const loose of [
    locator.name ? FIELDS.filter((f) => f !== 'label') : null,
    locator.href && locator.label ? FIELDS.filter((f) => f !== 'href') : null,
  ]) {
    const found = loose ? fitting(observation.elements, locator, loose) : [];
    if (found.length === 1) return found[0].id;
  }
  return `the page has no element like the step's (${describe(locator)})`;
}

const describe = (l: ElementLocator) =>
  [l.tag, l.type && `type=${l.type}`, l.name && `name=${l.name}`, l.label && JSON.stringify(l.label)].filter(Boolean).join(' ');

const MAX_NOTE_LINE = 300;

/** Every text and number of a value (an output, a data table), for checking against a page. */
function leaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' || typeof value === 'number') out.push(String(value).trim());
  else if (Array.isArray(value)) for (const item of value) leaves(item, out);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) leaves(item, out);
  return out.filter(Boolean);
}

const squeeze = (text: string) => text.replace(/\s+/g, ' ');

/**
 * Why the earlier run's final answer cannot be given again as it is: a text or number of its output
 * or data table that the page (and its frames) no longer shows. Null when all are still there.
 */
function staleAnswer(args: Record<string, unknown>, observation: Observation): string | null {
  const page = squeeze([observation.text, ...observation.frames.map((f) => f.text)].join('\n'));
  const missing = leaves([args.output, args.dataTable ?? []]).find((leaf) => !page.includes(squeeze(leaf)));
  if (missing === undefined) return null;
  const quoted = JSON.stringify(ellipsize(missing, 80));
  return `the earlier run's answer, ${JSON.stringify(args.output)}, is not all on this page (${quoted} is not): give the final answer from the page as it is now`;
}

/** Results that say a step was never carried out: nothing to replay. */
const NOT_CARRIED_OUT = /^(not executed|output rejected)\b/;

export class Replay {
  constructor(
    private steps: SourceStep[],
    readonly state: ReplayState,
    /** This task's secrets: a placeholder the earlier run typed must name one of them. */
    private vault: Pick<SecretVault, 'unfilled'>,
    /** The run was interrupted and resumed: its page was reopened. */
    private resumed = false,
  ) {}

  /** The next action to carry out on this page, or why the model must take over. */
  decide(observation: Observation): ReplayDecision {
    // A reopened page has its URL back, not what the replayed steps typed or chose on it: repeating
    // the rest blindly could send a form emptied by the reload. The model sees the page as it is.
    if (this.resumed) {
      this.resumed = false;
      if (this.state.done.length)
        return { takeOver: 'the run was interrupted and its page reopened, which may have undone what the replayed steps did on it' };
    }
    for (;;) {
      const source = this.steps[this.state.next];
      if (!source) return { takeOver: "the earlier run's steps are used up" };
      if (NOT_CARRIED_OUT.test(source.result)) {
        this.state.next++;
        continue;
      }
      if (!isBuiltInName(source.action))
        return { takeOver: `step ${source.index} of the earlier run called ${source.action}, which needs an answer from the user` };
      const args = { ...source.arguments };
      // Typed as it stands, a placeholder this task cannot fill would send its text to the site.
      const unfilled = typeof args.text === 'string' ? this.vault.unfilled(args.text) : [];
      if (unfilled.length)
        return { takeOver: `step ${source.index} of the earlier run typed ${unfilled.join(', ')}, which this task has no secret for` };
      // An answer read off the page then may be stale now: kept only while the page still says it.
      if (source.action === 'done') {
        const stale = staleAnswer(args, observation);
        if (stale) return { takeOver: `every action was replayed; ${stale}` };
      }
      if (typeof args.element === 'number') {
        // A step that named no element of its page failed then: there is nothing to repeat.
        if (!source.locator) {
          this.state.next++;
          continue;
        }
        const found = findElement(observation, source.locator);
        if (typeof found === 'string') return { takeOver: `step ${source.index} of the earlier run cannot be repeated: ${found}` };
        args.element = found;
      }
      return { call: { name: source.action, arguments: args }, source };
    }
  }

  /**
   * Notes a replayed step's outcome; answers why the model must take over when the action did not do
   * what it did in the earlier run (an action that failed then too is no reason).
   */
  record(source: SourceStep, ok: boolean, result: string): string | null {
    this.state.next++;
    const line = `${source.action} ${JSON.stringify(source.arguments)}: ${result}`;
    // Kept short: the note is sent with every later decision.
    this.state.done.push(ellipsize(line, MAX_NOTE_LINE));
    if (ok || result === source.result) return null;
    return `step ${source.index} of the earlier run did not work this time: ${result}`;
  }

  /** What the model is told when it takes over. */
  note(reason: string): string {
    const { done: lines } = this.state;
    const done = lines.length
      ? `These steps were replayed from an earlier successful run, without you:\n${lines.map((line, i) => `${i + 1}. ${line}`).join('\n')}\n`
      : '';
    return `(${done}The replay stopped: ${reason}. Carry on with the task from the current page.)`;
  }
}
