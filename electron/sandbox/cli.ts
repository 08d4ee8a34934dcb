import { parseArgs } from 'node:util';
import { createSandbox, DEFAULT_DELIVERY_MS } from './server';

const USAGE =
  'usage: npm run sandbox -- --port <n|0> [--data-dir <dir>] [--delivery manual|<ms>] [--token-lifetime <ms>] [--live-shapes] [--https]';

/** Parsed command line (see USAGE). */
interface CliOptions {
  port: number;
  dataDir?: string;
  delivery: 'manual' | number;
  tokenLifetimeMs?: number;
  liveShapes: boolean;
  https: boolean;
}

/** Parses the CLI arguments; throws a readable Error on bad input. */
function parseCli(argv: readonly string[]): CliOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      delivery: { type: 'string' },
      'token-lifetime': { type: 'string' },
      'live-shapes': { type: 'boolean' },
      https: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.port === undefined) throw new Error('--port <n|0> is required');
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0..65535, got ${values.port}`);
  let delivery: 'manual' | number = DEFAULT_DELIVERY_MS;
  if (values.delivery !== undefined) {
    if (values.delivery === 'manual') delivery = 'manual';
    else {
      delivery = Number(values.delivery);
      if (!Number.isFinite(delivery) || delivery < 0)
        throw new Error('--delivery must be "manual" or a delay in ms');
    }
  }
  let tokenLifetimeMs: number | undefined;
  if (values['token-lifetime'] !== undefined) {
    tokenLifetimeMs = Number(values['token-lifetime']);
    if (!Number.isInteger(tokenLifetimeMs) || tokenLifetimeMs <= 0)
      throw new Error('--token-lifetime must be a number of ms > 0');
  }
  return {
    port,
    delivery,
    liveShapes: values['live-shapes'] === true,
    https: values.https === true,
    ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
    ...(tokenLifetimeMs !== undefined ? { tokenLifetimeMs } : {}),
  };
}

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parseCli(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`sandbox: ${(error as Error).message}\n`);
    process.stderr.write(`${USAGE}\n`);
    process.exit(2);
  }
  let sandbox: Awaited<ReturnType<typeof createSandbox>>;
  try {
    sandbox = await createSandbox(options);
  } catch (error) {
    // One readable line: Takedesk shows it as the reason the Sandbox profile is unavailable.
    process.stderr.write(`sandbox: could not start: ${(error as Error).message ?? String(error)}\n`);
    process.exit(1);
  }
  // Exactly one line of JSON on stdout; everything else goes to stderr. In HTTPS mode it carries the certificate
  // (PEM) a client must trust for this sandbox, and nothing else.
  const line = {
    url: sandbox.url,
    tokens: sandbox.tokens,
    ...(sandbox.certificate ? { certificate: sandbox.certificate } : {}),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`sandbox: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // Started by Takedesk with an IPC channel (browser mode's child process): that channel closes when the app
  // stops or dies, so the sandbox never outlives it. (Electron ends its utility processes itself.)
  if (process.channel) process.once('disconnect', stop);
}

void main();
