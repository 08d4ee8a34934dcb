// `npm start` and `npm test` run this first with the machine's own Node (18+; plain Node, no dependencies): it
// installs what is missing, then continues the task under the project's Node 24 (node_modules/.bin/node).
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What each command continues with, under Node 24; `check` is the old `npm test` chain. */
export const TASKS = {
  start: ['node_modules/tsx/dist/cli.mjs', 'scripts/start.ts'],
  test: ['npm', 'run', 'check'],
};

/**
 * The outside programs `npm test` uses, found the way the suites find them: Playwright launches CHROMIUM_PATH or
 * /usr/bin/chromium (e2e/playwright.config.ts); the reference tests spawn `ffmpeg` and `sox` from PATH.
 * @param {NodeJS.ProcessEnv} env
 * @returns {{ name: string, pkg: string, use: string, path?: string }[]}
 */
export function testTools(env) {
  return [
    { name: 'chromium', pkg: 'chromium', use: 'e2e', path: env.CHROMIUM_PATH || '/usr/bin/chromium' },
    { name: 'ffmpeg', pkg: 'ffmpeg', use: 'reference tests' },
    { name: 'sox', pkg: 'sox', use: 'reference tests' },
  ];
}

/** @param {string} file */
function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * @param {string} name
 * @param {string | undefined} pathVar
 */
export function findOnPath(name, pathVar) {
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', ''] : [''];
  for (const dir of (pathVar ?? '').split(delimiter).filter(Boolean)) {
    for (const ext of exts) if (isExecutable(join(dir, name + ext))) return join(dir, name + ext);
  }
  return null;
}

/**
 * @param {ReturnType<typeof testTools>} tools
 * @param {NodeJS.ProcessEnv} env
 */
export function missingTools(tools, env) {
  return tools.filter((t) => !(t.path ? isExecutable(t.path) : findOnPath(t.name, env.PATH)));
}

/**
 * What to do about missing programs: install them (root with apt-get, as CI is), or stop with the command to type.
 * @param {ReturnType<typeof testTools>} missing
 * @param {{ uid: number, hasApt: boolean, chromiumPath?: string }} where
 * @returns {{ install: string[] } | { message: string }}
 */
export function toolsPlan(missing, { uid, hasApt, chromiumPath }) {
  const custom = Boolean(chromiumPath) && missing.some((t) => t.name === 'chromium');
  const pkgs = missing.filter((t) => !(custom && t.name === 'chromium')).map((t) => t.pkg);
  if (uid === 0 && hasApt && !custom) return { install: pkgs };
  const steps = [];
  if (custom)
    steps.push(`CHROMIUM_PATH=${chromiumPath} does not exist: point it at a Chromium or Chrome, or unset it`);
  if (pkgs.length > 0 && hasApt)
    steps.push(
      `install ${custom ? 'the rest' : 'them'} with:\n  ${uid === 0 ? '' : 'sudo '}apt-get install -y ${pkgs.join(' ')}`,
    );
  else if (pkgs.length > 0)
    steps.push(
      `install ${pkgs.join(', ')} with your package manager (CHROMIUM_PATH may name any Chromium or Chrome)`,
    );
  const what = missing.map((t) => `${t.name} (${t.use})`).join(', ');
  return {
    message: `takedesk: npm test needs ${what}, not found here; ${steps.join('; ')}\nthen run npm test again.`,
  };
}

/**
 * Why node_modules must be (re)installed, or null when it matches package-lock.json.
 * Content, not mtime: git stamps a checked-out lockfile with the checkout time; parsing both files takes ~50 ms.
 * @param {string} root
 */
export function installReason(root) {
  const modules = join(root, 'node_modules');
  if (!existsSync(modules)) return 'there is no node_modules';
  const installedFile = join(modules, '.package-lock.json');
  if (!existsSync(installedFile)) return 'node_modules has no record of an npm install (.package-lock.json)';
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const installed = JSON.parse(readFileSync(installedFile, 'utf8'));
  const difference = lockDifference(lock.packages ?? {}, installed.packages ?? {});
  if (difference) return `package-lock.json changed since the last install (${difference})`;
  if (!existsSync(join(modules, '.bin', 'node'))) return 'Node 24 (node_modules/.bin/node) is missing';
  return null;
}

/**
 * The first package where the lockfile and npm's record of node_modules disagree, or null.
 * @param {Record<string, { version?: string, integrity?: string, link?: boolean, optional?: boolean }>} locked
 * @param {Record<string, { version?: string, integrity?: string, link?: boolean }>} installed
 */
export function lockDifference(locked, installed) {
  const name = (/** @type {string} */ key) => key.slice(key.lastIndexOf('node_modules/') + 13);
  for (const [key, want] of Object.entries(locked)) {
    if (key === '') continue;
    const have = installed[key];
    // Optional packages for other platforms (esbuild's, for instance) are locked but never installed.
    if (!have) {
      if (!want.optional) return `${name(key)} is not installed`;
    } else if (
      have.version !== want.version ||
      have.integrity !== want.integrity ||
      have.link !== want.link
    ) {
      return `${name(key)} ${want.version} is locked, ${have.version} installed`;
    }
  }
  const extra = Object.keys(installed).find((key) => key !== '' && !(key in locked));
  return extra ? `${name(extra)} is installed but no longer locked` : null;
}

/**
 * The npm that runs this script (npm_execpath), else `npm` from PATH.
 * @param {NodeJS.ProcessEnv} env
 * @param {string} node
 * @returns {[string, string[]]}
 */
export function npmCommand(env, node) {
  const cli = env.npm_execpath;
  return cli && /npm-cli\.[cm]?js$/.test(cli) ? [node, [cli]] : ['npm', []];
}

/** @param {string} line */
const say = (line) => process.stderr.write(`takedesk: ${line}\n`);

/**
 * @param {string} root
 * @param {string} reason
 * @param {NodeJS.ProcessEnv} env
 */
function install(root, reason, env) {
  const modules = join(root, 'node_modules');
  if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) {
    say(
      `${reason}, but node_modules links to ${realpathSync(modules)}, which may be shared: run npm ci there.`,
    );
    return false;
  }
  say(`${reason}: running npm ci (a few minutes, once)...`);
  const [npm, pre] = npmCommand(env, process.execPath);
  // .npmrc keeps npm silent for the scripts; an install that fails must still say why.
  const loglevel = !env.npm_config_loglevel || env.npm_config_loglevel === 'silent' ? 'error' : undefined;
  const args = [...pre, 'ci', ...(loglevel ? [`--loglevel=${loglevel}`] : [])];
  const ci = spawnSync(npm, args, {
    cwd: root,
    env,
    stdio: 'inherit',
    shell: npm === 'npm' && process.platform === 'win32',
  });
  if (ci.status !== 0) {
    say(`npm ci failed (exit ${ci.status ?? ci.signal}); fix the error above, then run the command again.`);
    return false;
  }
  const node = join(modules, '.bin', 'node');
  if (!existsSync(node)) {
    say('npm ci did not install Node 24 (node_modules/.bin/node, the `node` devDependency).');
    return false;
  }
  fetchElectron(root, node, env);
  return true;
}

/**
 * Electron 45 fetches its binary from GitHub on first use, not at install; fetch it now where allowed, and where it
 * cannot be fetched say so once: `npm start` then runs browser mode.
 * @param {string} root
 * @param {string} node
 * @param {NodeJS.ProcessEnv} env
 */
function fetchElectron(root, node, env) {
  const installer = join(root, 'node_modules', 'electron', 'install.js');
  if (!existsSync(installer)) return;
  const ci = Boolean(env.CI) && env.CI !== 'false' && env.CI !== '0';
  if (ci || env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    say(`not fetching the Electron binary (${ci ? 'CI' : 'ELECTRON_SKIP_BINARY_DOWNLOAD'}).`);
    return;
  }
  say('fetching the Electron binary from GitHub...');
  const got = spawnSync(node, [installer], { cwd: root, env, encoding: 'utf8' });
  if (got.status !== 0) {
    const why = `${got.stderr}`.trim().split('\n').pop() || `exit ${got.status}`;
    say(
      `the Electron binary could not be fetched (${why}); npm start will use browser mode, npx install-electron retries.`,
    );
  }
}

/**
 * Runs the task's command under Node 24 with node_modules/.bin first on PATH; exit codes and signals pass through.
 * @param {string} root
 * @param {string[]} command
 * @param {NodeJS.ProcessEnv} env
 */
function continueWith(root, command, env) {
  const bin = join(root, 'node_modules', '.bin');
  const node = join(bin, 'node');
  const [file, args] = command[0] === 'npm' ? npmCommand(env, node) : [node, []];
  const rest = command[0] === 'npm' ? command.slice(1) : command;
  const child = spawn(file, [...args, ...rest], {
    cwd: root,
    env: { ...env, PATH: `${bin}${delimiter}${env.PATH ?? ''}` },
    stdio: 'inherit',
    shell: file === 'npm' && process.platform === 'win32',
  });
  const signals = /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP']);
  /** @param {NodeJS.Signals} signal */
  const forward = (signal) => child.kill(signal);
  for (const signal of signals) process.on(signal, forward);
  child.on('error', (error) => {
    say(`could not run ${file}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const s of signals) process.off(s, forward);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}

/**
 * @param {string[]} argv
 * @param {NodeJS.ProcessEnv} env
 * @returns {number | undefined} an exit code when the preflight stops, undefined when the task continues
 */
export function main(argv, env) {
  const [task, ...rest] = argv;
  if (task !== 'start' && task !== 'test') {
    say('usage: node scripts/preflight.mjs start|test [args...]');
    return 2;
  }
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');

  if (task === 'test') {
    let missing = missingTools(testTools(env), env);
    if (missing.length > 0) {
      const plan = toolsPlan(missing, {
        uid: process.getuid ? process.getuid() : -1,
        hasApt: Boolean(findOnPath('apt-get', env.PATH)),
        chromiumPath: env.CHROMIUM_PATH,
      });
      if ('message' in plan) {
        process.stderr.write(`${plan.message}\n`);
        return 1;
      }
      say(
        `installing ${plan.install.join(' ')} with apt-get (npm test needs them: Chromium, ffmpeg, sox)...`,
      );
      const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
      /** @type {import('node:child_process').SpawnSyncOptions} */
      const quiet = { env: aptEnv, stdio: ['ignore', 'ignore', 'inherit'] };
      if (spawnSync('apt-get', ['update', '-qq'], quiet).status === 0)
        spawnSync('apt-get', ['install', '-y', '-qq', ...plan.install], quiet);
      missing = missingTools(testTools(env), env);
      if (missing.length > 0) {
        say(`apt-get did not install ${missing.map((t) => t.pkg).join(' ')}; see its error above.`);
        return 1;
      }
    }
  }

  const reason = installReason(root);
  if (reason && !install(root, reason, env)) return 1;
  continueWith(root, [...TASKS[task], ...rest], env);
  return undefined;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const code = main(process.argv.slice(2), process.env);
  if (code !== undefined) process.exitCode = code;
}
