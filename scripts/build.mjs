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
writeFileSync(
  join(values.outdir, 'main.js'),
  `// Written by scripts/build.mjs.\nprocess.env.NODE_ENV ??= 'production';\nawait import('./almanac.js');\n`,
);
console.log(`build: ${values.outdir}/main.js`);
