// palkit command line: `serve` (the service), `migrate` and `keys create --owner N`. Runs from the source
// under tsx (`npm run serve`) and compiled as dist/server/cli.js (the installed `palkit` command).
// The demo (`npm start`) is demo/start.ts.
import { buildInfo } from '../platform/version.js';
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from '../platform/config.js';
import { createService } from './service.js';
import { openDatabase } from '../platform/db/database.js';
import { createApiKey } from '../platform/http/auth.js';
import { createLogger, scrubText } from '../platform/log.js';
import { guardRejections } from './rejection-guard.js';

const USAGE = `usage: palkit <command>
  serve [--port N] [--host H]   run the service (port 8787 unless PORT or --port says otherwise)
  migrate                       bring the database up to date and exit
  keys create --owner N         print a new API key for owner N (a positive integer)
configuration comes from the environment: PALKIT_DATA, DATABASE_URL, PALKIT_API_KEYS, PALKIT_PUBLIC_URL, ... (see docs/production.md)`;

/** How long a drain may take before the process gives up and exits anyway (orchestrators wait ~10 s). */
const DRAIN_DEADLINE_MS = 9_000;

const describeDatabase = (config: ReturnType<typeof loadConfig>) =>
  config.databaseUrl ? 'postgresql' : config.dataDir === 'memory' ? 'memory' : config.dataDir;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve': {
      const { values } = parseArgs({
        args: rest,
        options: { port: { type: 'string', default: process.env.PORT ?? '8787' }, host: { type: 'string', default: '0.0.0.0' } },
      });
      const port = Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError('--port must be a port number');
      const config = loadConfig(process.env, port);
      const service = await createService(config, { processMetrics: true });
      const { log } = service.deps;
      guardRejections(log, service.deps.metrics);
      const { url, port: actual } = await service.listen(port, values.host);
      // With --port 0 the advertised URL follows the port actually taken.
      if (port === 0 && !process.env.PALKIT_PUBLIC_URL) (config as { publicUrl: string }).publicUrl = url;
      log.info('palkit service listening', {
        version: buildInfo().version,
        url,
        port: actual,
        pid: process.pid,
        public_url: config.publicUrl,
        database: describeDatabase(config),
      });
      let stopping = false;
      const stop = (signal: NodeJS.Signals) => {
        if (stopping) {
          log.error('second signal: exiting at once', { signal });
          process.exit(1);
        }
        stopping = true;
        log.info('draining', { signal });
        // The process's exit watchdog and its figure: wall-clock time, whatever the service's clock does.
        // eslint-disable-next-line no-restricted-properties -- the drain's measured duration, wall-clock
        const started = Date.now();
        // eslint-disable-next-line no-restricted-globals -- the exit watchdog must fire in real time
        const deadline = setTimeout(() => {
          log.error('drain did not finish in time: exiting', { deadline_ms: DRAIN_DEADLINE_MS });
          process.exit(1);
        }, DRAIN_DEADLINE_MS);
        deadline.unref();
        service.close({ graceMs: 3_000 }).then(
          () => {
            // eslint-disable-next-line no-restricted-properties -- the drain's measured duration, wall-clock
            log.info('stopped', { duration_ms: Date.now() - started });
            process.exit(0);
          },
          (error: unknown) => {
            log.error('drain failed', { error: error instanceof Error ? error.message : String(error) });
            process.exit(1);
          },
        );
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      return -1;
    }
    case 'migrate': {
      if (rest.length) {
        console.error(USAGE);
        return 2;
      }
      const config = loadConfig();
      const log = createLogger(config.log);
      // Opening the database runs every pending migration.
      const opened = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
      await opened.close();
      log.info('database is up to date', { database: describeDatabase(config) });
      return 0;
    }
    case 'keys': {
      const { positionals, values } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { owner: { type: 'string' }, label: { type: 'string' } },
      });
      if (positionals[0] !== 'create' || !values.owner || !/^\d+$/.test(values.owner) || Number(values.owner) <= 0) {
        console.error('usage: palkit keys create --owner <positive integer> [--label text]');
        return 2;
      }
      const config = loadConfig();
      const opened = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
      try {
        console.log(await createApiKey(opened.db, Number(values.owner), values.label ?? null));
      } finally {
        await opened.close();
      }
      return 0;
    }
    case '--help':
    case '-h':
    case 'help':
      console.log(USAGE);
      return 0;
    default:
      console.error(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error) => {
    console.error(`palkit: ${scrubText(error instanceof Error ? error.message : String(error))}`);
    process.exit(1);
  },
);
