#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// Under V8's defaults the young generation grows to two 16 MB semi-spaces of headroom a streaming command never
// needs, which puts `normalize` over 1 GB past its memory target (bench/RESULTS.md). `--max-semi-space-size` is read
// only as Node starts, and a shebang cannot pass it everywhere (BusyBox `env`, on Alpine, has no `-S`), so the
// young generation is kept at its starting size instead: the growth factor is read at each scavenge. A size given
// on the command line or in NODE_OPTIONS is the user's choice and is left alone.
const nodeOptions = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
const ownYoungGeneration = !/--(max|min)[-_]semi[-_]space[-_]size/.test(nodeOptions);
if (ownYoungGeneration) setFlagsFromString('--semi-space-growth-factor=1');

let main;
let reportInternalError;
try {
  const { codeCacheDir, runWithCodeCache } = await import('../bundle/code-cache.js');
  const script = fileURLToPath(new URL('../bundle/cli.cjs', import.meta.url));
  const loaded = runWithCodeCache(script, { dir: codeCacheDir(process.env), variant: process.argv[2] });
  // As the process exits, so that the cache holds what this run compiled, not only the program's top level.
  process.once('exit', loaded.saveCodeCache);
  main = loaded.exports.main;
  reportInternalError = loaded.exports.reportInternalError;
  // Up to a cap, and only until a long line comes: see `young-generation.ts` in @cursor-stream/node.
  if (ownYoungGeneration) loaded.exports.allowYoungGenerationGrowth();
} catch (error) {
  // In a clone of the repository the bundle exists only after a build.
  const missing =
    (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('bundle')) ||
    (error?.code === 'ENOENT' && String(error.path).endsWith('cli.cjs'));
  if (!missing) throw error;
  process.stderr.write('cursor-stream: the command is not built yet: run `pnpm build` first\n');
  process.exit(2);
}

// A reader that stops early (`| head`) closes the pipe: stop quietly rather than die on EPIPE, with the exit code of a
// command ended by SIGPIPE (128 + 13), as `cat` would have: the command did not finish, so it cannot say 0 (no
// problems) when a pipeline's status is checked (`set -o pipefail`). Any other failure to write the output (a full
// disk) is an I/O error: one line, exit code 2.
const EXIT_BROKEN_PIPE = 141;
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(EXIT_BROKEN_PIPE);
  process.stderr.write(`cursor-stream: cannot write the output: ${error.message}\n`);
  process.exit(2);
});
// stderr that cannot be written (its reader gone, a full disk) leaves nowhere to say anything: what is said there is
// dropped, and the command (or the relay server) goes on.
process.stderr.on('error', () => {});

// A failure the command did not catch (a bug of its own, thrown from a callback) is said in one line, never as a
// stack trace, with the exit code of such failures.
const internal = (error) => process.exit(reportInternalError(error));
process.on('uncaughtException', internal);
process.on('unhandledRejection', internal);

process.exitCode = await main(process.argv.slice(2));
