// What a reader follows in README.md and docs/ must exist (issue 46 item 5): every relative link
// resolves to a file of the repository and, with a #fragment, to a heading of that file
// (remark-validate-links, run through unified-engine as remark's command line runs it, since only
// that way does it check headings in other files; offline: `repository: false`); every repository
// path named in inline code (`src/http/router.ts`, `src/net/`) exists; README.md stays a page a
// newcomer can read (at most 250 lines); and nothing points at ../shared, which a clone lacks.
// The last test runs the same checks on a scratch repository with one fault of each kind.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Nodes } from 'mdast';
import { remark } from 'remark';
import remarkValidateLinks from 'remark-validate-links';
import type { Pluggable } from 'unified';
import { engine } from 'unified-engine';
import type { VFile } from 'vfile';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README_MAX_LINES = 250;
/** Top-level folders that are not the repository's own content (installed, built or local data). */
const NOT_REPOSITORY = new Set(['node_modules', 'dist', 'data', 'coverage', 'test-artifacts', '.git']);

/** README.md, every docs/*.md, and the benchmark logbook the docs link to. */
function documents(root: string): string[] {
  const docs = existsSync(join(root, 'docs'))
    ? readdirSync(join(root, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`)
    : [];
  return ['README.md', ...docs, 'bench/results/logbook.md'].filter((file) => existsSync(join(root, file)));
}

/** remark-validate-links' findings (missing files and headings of relative links), one line each. */
async function brokenLinks(root: string, files: string[]): Promise<string[]> {
  const found: VFile[] = await new Promise((resolve, reject) => {
    engine(
      {
        processor: remark,
        cwd: root,
        files,
        // The engine passes each plugin its options and the file set, as remark's command line does.
        plugins: [[remarkValidateLinks, { repository: false }] as Pluggable],
        detectConfig: false,
        detectIgnore: false,
        out: false,
        output: false,
        quiet: true,
        streamError: new PassThrough(),
      },
      (error, _code, context) => (error ? reject(error) : resolve(context?.files ?? [])),
    );
  });
  return found.flatMap((file) => file.messages.map((message) => `${relative(root, file.path)}:${message.line ?? '?'}: ${message.reason}`));
}

/** Inline code that names a path in one of the repository's top-level folders, or a bare file name, and is missing. */
function missingPaths(root: string, files: string[]): string[] {
  const folders = new Set(readdirSync(root).filter((name) => !NOT_REPOSITORY.has(name) && statSync(join(root, name)).isDirectory()));
  const problems: string[] = [];
  for (const file of files) {
    for (const node of inlineCode(remark.parse(readFileSync(join(root, file), 'utf8')))) {
      const value = node.value;
      // A bare file name (`schema.graphql`) is a file at the root; anywhere else, write its path.
      const bareFile = /^[\w.-]+\.(json|[cm]?[jt]s|graphql|prisma|md|sh)$/.test(value);
      if (!bareFile && (!/^[\w.-]+\/\S*$/.test(value) || !folders.has(value.split('/')[0]))) continue;
      // A placeholder (bench/results/<database>-<events>.md) or a pattern: its fixed folders must exist.
      const fixed = /[<*{]/.test(value) ? value.slice(0, value.search(/[<*{]/)).replace(/[^/]*$/, '') : value;
      if (!existsSync(join(root, fixed))) problems.push(`${file}:${node.position?.start.line}: \`${value}\` does not exist`);
    }
  }
  return problems;
}

/** Every inline code node of a markdown tree, in document order. */
function* inlineCode(node: Nodes): Generator<Extract<Nodes, { type: 'inlineCode' }>> {
  if (node.type === 'inlineCode') yield node;
  if ('children' in node) for (const child of node.children) yield* inlineCode(child);
}

/** Lines that name ../shared (or a shared/ path), which a user's clone does not have. */
function sharedReferences(root: string, files: string[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (/\.\.\/shared\b|(^|[\s`(])shared\/[\w.-]/.test(line)) problems.push(`${file}:${index + 1}: names ../shared`);
      });
  }
  return problems;
}

function readmeTooLong(root: string): string[] {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').replace(/\n$/, '').split('\n').length;
  return lines > README_MAX_LINES ? [`README.md has ${lines} lines (at most ${README_MAX_LINES})`] : [];
}

async function check(root: string): Promise<string[]> {
  const files = documents(root);
  return [...(await brokenLinks(root, files)), ...missingPaths(root, files), ...sharedReferences(root, files), ...readmeTooLong(root)];
}

describe('README.md and docs/', () => {
  it('has the reference in docs/ and the logbook under bench/results/', () => {
    const docs = documents(ROOT);
    for (const page of ['graphql', 'rest', 'site-and-feeds', 'import', 'changes', 'browser-tasks', 'console', 'eval'])
      expect(docs).toContain(`docs/${page}.md`);
    for (const page of ['operations', 'architecture', 'performance']) expect(docs).toContain(`docs/${page}.md`);
    expect(docs).toContain('bench/results/logbook.md');
  });

  it('every relative link and heading resolves, every named path exists, no ../shared, README ≤ 250 lines', async () => {
    expect(await check(ROOT)).toEqual([]);
  });

  it('the checks fail on a broken link, a missing heading, a missing path or bare file, ../shared and a long README', async () => {
    const root = mkdtempSync(join(tmpdir(), 'almanac-docs-links-'));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(dirname(join(root, file)), { recursive: true });
        writeFileSync(join(root, file), text);
      };
      write('src/net/url-policy.ts', '');
      write('docs/guide.md', '# Guide\n\n## Settings\n\nSee [the start](../README.md#almanac).\n');
      const fine = '# Almanac\n\n[Settings](docs/guide.md#settings), `src/net/url-policy.ts`, `src/net/`.\n';
      write('README.md', fine);
      expect(await check(root)).toEqual([]);

      write(
        'README.md',
        fine +
          '\n[gone](docs/missing.md), [no such heading](docs/guide.md#nowhere), [here](#nowhere-either).\n' +
          'Paths: `src/rest/response-cache.ts`, `src/nope/<name>.ts`, `router.ts`, `text/calendar` (not a path).\n' +
          'The contract: `../shared/spec/browser-tasks.md`.\n' +
          '\n'.repeat(README_MAX_LINES),
      );
      const problems = await check(root);
      const has = (pattern: RegExp) =>
        expect(
          problems.some((line) => pattern.test(line)),
          problems.join('\n'),
        ).toBe(true);
      has(/README\.md:5: .*docs\/missing\.md/);
      has(/README\.md:5: .*nowhere/);
      has(/README\.md:5: .*nowhere-either/);
      has(/`src\/rest\/response-cache\.ts` does not exist/);
      has(/`src\/nope\/<name>\.ts` does not exist/);
      has(/`router\.ts` does not exist/);
      has(/README\.md:7: names \.\.\/shared/);
      has(/README\.md has \d+ lines/);
      expect(problems.some((line) => line.includes('text/calendar'))).toBe(false);
      expect(problems).toHaveLength(8);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
