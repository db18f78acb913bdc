import { runBackup } from './backup';
import { ConfigError, loadConfig } from './config';
import { EmbeddedPostgresError } from './db/embedded';
import { runWhaticketImport } from './import/whaticket/cli';
import { seed } from './seed';
import { openDatabase, startApiServer } from './server';
import { startWebServer } from './web-server';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Refusing to start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const { database, embeddedDirectory, stop } = await openDatabase(config);
  const seeded = await seed(config, database);
  const api = await startApiServer(config, database);
  const web = config.roles.has('web') ? await startWebServer(config) : undefined;
  const log = api.app.log;
  if (seeded.admin?.password) {
    log.info(`Demo data created. Sign in as ${seeded.admin.email} / ${seeded.admin.password}`);
    console.log(`\n  Demo sign-in: ${seeded.admin.email} / ${seeded.admin.password}\n`);
  }
  console.log(`  API  ${api.url}   (docs at ${api.url}/docs)`);
  if (embeddedDirectory) console.log(`  Database  embedded PostgreSQL in ${embeddedDirectory}`);
  if (web)
    console.log(
      `  Web  http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.WEB_PORT}\n`,
    );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Whatever is still unfinished at the deadline is left: the next owner picks it up.
    setTimeout(() => {
      log.warn(`${signal}: drain deadline of ${config.DRAIN_TIMEOUT_MS} ms reached, exiting`);
      process.exit(0);
    }, config.DRAIN_TIMEOUT_MS).unref();
    try {
      if (signal === 'SIGTERM') {
        log.info(`${signal}: draining (${config.DRAIN_GRACE_MS} ms of grace)`);
        await api.drain(config.DRAIN_GRACE_MS);
      } else {
        log.info(`${signal}: shutting down`);
      }
      await web?.close();
      await api.close();
      await stop();
      log.info(`${signal}: stopped`);
    } catch (error) {
      log.error({ err: error }, `${signal}: stopping failed`);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

// `main.ts backup [--out FILE]` writes a backup instead of starting the server;
// `main.ts import-whaticket --from URL ...` moves a Whaticket 6.0.0 database into ours.
const commands: Record<string, (args: string[]) => Promise<void>> = {
  backup: runBackup,
  'import-whaticket': runWhaticketImport,
};
const command = commands[process.argv[2] ?? ''];
const run = command ? command(process.argv.slice(3)) : main();
run.catch((error) => {
  // What the person starting it can act on is said in one sentence; the rest is a bug.
  if (error instanceof EmbeddedPostgresError) console.error(`Cannot start: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
