// palkit command line: `serve` (the service) and `keys create --owner N`. The demo (`npm start`) is demo/start.ts.
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from './config.js';
import { createService } from './service.js';
import { openDatabase } from './db/database.js';
import { createApiKey } from './http/auth.js';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve': {
      const { values } = parseArgs({ args: rest, options: { port: { type: 'string', default: process.env.PORT ?? '8787' }, host: { type: 'string', default: '0.0.0.0' } } });
      const port = Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError('--port must be a port number');
      const config = loadConfig(process.env, port);
      const service = await createService(config);
      const { url } = await service.listen(port, values.host);
      console.log(`palkit service listening on ${url} (public URL ${config.publicUrl}; database: ${config.databaseUrl ? 'PostgreSQL' : config.dataDir === 'memory' ? 'in memory' : config.dataDir})`);
      const stop = async () => {
        await service.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return -1;
    }
    case 'keys': {
      const { positionals, values } = parseArgs({ args: rest, allowPositionals: true, options: { owner: { type: 'string' }, label: { type: 'string' } } });
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
    default:
      console.error('usage: palkit <serve [--port N] [--host H] | keys create --owner N>');
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error) => {
    console.error(error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
