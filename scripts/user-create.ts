// npm run user:create -- --login NAME --role ROLE   prints a new API key once; refuses an existing login.
import { parseArgs } from 'node:util';
import { createUserWithKey, UserExistsError } from '../src/auth/api-keys.js';
import { ROLES } from '../src/auth/viewer.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { deployMigrations } from '../src/db/migrations.js';

const { values } = parseArgs({
  options: {
    login: { type: 'string' },
    role: { type: 'string', default: 'subscriber' },
    email: { type: 'string' },
    name: { type: 'string' },
  },
});
if (!values.login || !(ROLES as readonly string[]).includes(values.role!)) {
  console.error(`usage: npm run user:create -- --login NAME --role ${ROLES.join('|')} [--email E] [--name "Display Name"]`);
  process.exit(2);
}
const config = loadConfig();
await deployMigrations(config.databaseUrl);
const db = await openDatabase(config.databaseUrl);
try {
  const { userId, key } = await createUserWithKey(db.prisma, {
    login: values.login,
    role: values.role!,
    email: values.email,
    displayName: values.name,
  });
  console.log(`user ${values.login} (id ${userId}, ${values.role})`);
  console.log(`API key (shown once): ${key}`);
} catch (error) {
  if (!(error instanceof UserExistsError)) throw error;
  // Never a silent role change or an extra key: those are explicit commands.
  console.error(`user:create: ${error.message}; for another key: npm run keys -- create --login ${values.login}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
