// Builds the server into one ES module, dist/almanac.js, and its entry dist/main.js, so that
// `npm start` runs plain Node: no TypeScript compiled at start-up (tsx costs ~1 s and ~120 MB of
// resident memory per process). Dependencies stay in node_modules (packages are external); the
// generated Prisma clients and the project's own modules are bundled. Takes well under a second;
// `npm start` runs it first.
//   node scripts/build.mjs [--outdir dist]   (a folder inside the project: packages resolve from it)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' } } });
await build({
  entryPoints: { almanac: 'src/main.ts' },
  outdir: values.outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  packages: 'external',
  // Dynamic imports become chunks of their own, so what a process does not use (federation, MCP)
  // is never loaded: one bundle would hoist every package import to its top.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  // `npm start` maps stack traces (--enable-source-maps), and Node keeps the whole map in memory:
  // with the sources' text inside (2 MB, the generated Prisma clients' included) a server's resident
  // size was ~90 MB larger (first route under load 273 MB against 190). Stack traces need only the
  // mappings; the sources are the repository's own files.
  sourcesContent: false,
  logLevel: 'warning',
});
// The entry sets NODE_ENV before any library loads: graphql-js, for one, picks its fast type checks
// at load time in production mode (~5% of a list request's CPU). Almanac itself never reads it.
// It also sizes V8's young generation, which is fixed when the process starts: Node 24 sizes it from
// the machine's memory (128 MB of new space on a 24 GB machine, against Node 20's 32 MB), and under
// load it filled to that size, ~100 MB of a server's peak resident memory with no measured gain in
// CPU per request (docs/performance.md#memory). So the entry replaces itself once, same process id,
// with Node 20's 16 MB semi-spaces, unless the operator chose a size (execArgv or NODE_OPTIONS).
const entry = `// Written by scripts/build.mjs.
process.env.NODE_ENV ??= 'production';
const chosen = /--(max-)?semi-space-size/.test(\`\${process.execArgv.join(' ')} \${process.env.NODE_OPTIONS ?? ''}\`);
if (!chosen && typeof process.execve === 'function') {
  const listeners = process.listeners('warning');
  process.removeAllListeners('warning'); // execve is experimental in Node 24: its one warning is noise here
  const [node, script, ...args] = process.argv;
  try {
    process.execve(node, [node, ...process.execArgv, '--max-semi-space-size=16', script, ...args], process.env);
  } catch {
    for (const listener of listeners) process.on('warning', listener); // not replaced: run with Node's own size
  }
}
await import('./almanac.js');
`;
writeFileSync(join(values.outdir, 'main.js'), entry);
console.log(`build: ${values.outdir}/main.js`);
