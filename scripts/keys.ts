// npm run keys -- list [--login NAME]          every key (or one user's), newest first
// npm run keys -- create --login NAME [--label TEXT]   prints the new key once
// npm run keys -- rotate --id N                a new key for the same user and label; N revoked
// npm run keys -- revoke --id N
import { parseArgs } from 'node:util';
import { createKey, KeyError, listKeys, revokeKey, rotateKey, type ApiKeyRecord } from '../src/auth/key-management.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { deployMigrations } from '../src/db/migrations.js';

const USAGE = 'usage: npm run keys -- list [--login NAME] | create --login NAME [--label TEXT] | rotate --id N | revoke --id N';
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { login: { type: 'string' }, label: { type: 'string' }, id: { type: 'string' } },
});
const [command] = positionals;
const id = Number(values.id);
if (
  !['list', 'create', 'rotate', 'revoke'].includes(command) ||
  (command === 'create' && !values.login) ||
  (['rotate', 'revoke'].includes(command) && !Number.isSafeInteger(id))
) {
  console.error(USAGE);
  process.exit(2);
}

const row = (key: ApiKeyRecord) =>
  [
    key.id,
    key.login,
    `${key.prefix}…`,
    key.label || '-',
    key.createdAt.toISOString(),
    key.lastUsedAt?.toISOString() ?? 'never',
    key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active',
  ].join('\t');

const config = loadConfig();
await deployMigrations(config.databaseUrl);
const db = await openDatabase(config.databaseUrl);
try {
  let userId: number | undefined;
  if (values.login) {
    const user = await db.prisma.user.findUnique({ where: { login: values.login }, select: { id: true } });
    if (!user) throw new KeyError('not_found', `no user ${values.login}`);
    userId = user.id;
  }
  if (command === 'list') {
    console.log(['id', 'user', 'prefix', 'label', 'created', 'last used', 'state'].join('\t'));
    for (const key of await listKeys(db.prisma, 'system', userId)) console.log(row(key));
  } else if (command === 'revoke') {
    console.log(row(await revokeKey(db.prisma, 'system', id)));
  } else {
    const made =
      command === 'create'
        ? await createKey(db.prisma, 'system', { userId, label: values.label })
        : await rotateKey(db.prisma, 'system', id);
    console.log(row(made.record));
    console.log(`API key (shown once): ${made.key}`);
  }
} catch (error) {
  if (!(error instanceof KeyError)) throw error;
  console.error(`keys: ${error.message}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
