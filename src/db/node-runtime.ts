// Imported first by every module that loads better-sqlite3. Version 13 needs Node 22 or later: on
// Node 20 it loads, then the process dies with a segmentation fault (exit 139, nothing printed).
// Refuse in one line before that can happen.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(
    `almanac: Node ${process.versions.node} cannot open a database (better-sqlite3 13 needs Node 22 or later); ` +
      `run the command through npm (npm run …), which uses the project's Node 24 from node_modules/.bin\n`,
  );
  process.exit(1);
}
export {};
