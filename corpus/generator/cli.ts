/**
 * `pnpm corpus:generate -- --size 200MB --out corpus/generated/mixed.ndjson [--profile mixed] [--seed 1]
 * [--raw-newlines 0] [--dialect official|python-wrapper|payload-envelope]`
 */

import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DIALECT_WRITERS } from './dialect-writers.ts';
import { writeCorpus } from './generate-corpus.ts';
import { parseSize } from './parse-size.ts';
import { isProfileName, PROFILE_NAMES } from './profiles.ts';

const USAGE = `usage: corpus:generate --out FILE [--size 200MB] [--profile ${PROFILE_NAMES.join('|')}]
                       [--seed 1] [--raw-newlines SHARE] [--dialect ${[...DIALECT_WRITERS.keys()].join('|')}]`;

async function main(argv: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    // pnpm passes a `--` separator through to the script.
    args: argv.filter((arg) => arg !== '--'),
    options: {
      out: { type: 'string' },
      size: { type: 'string', default: '200MB' },
      profile: { type: 'string', default: 'mixed' },
      seed: { type: 'string', default: '1' },
      'raw-newlines': { type: 'string', default: '0' },
      dialect: { type: 'string', default: 'official' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || values.out === undefined) {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  if (!isProfileName(values.profile)) throw new RangeError(`unknown profile ${values.profile}\n${USAGE}`);
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) throw new RangeError(`--seed must be an integer, got ${values.seed}`);
  // pnpm runs scripts from the package folder; INIT_CWD is where the user typed the command.
  const out = resolve(process.env.INIT_CWD ?? process.cwd(), values.out);
  await mkdir(dirname(out), { recursive: true });
  const started = performance.now();
  const summary = await writeCorpus(out, {
    seed,
    targetBytes: parseSize(values.size),
    profile: values.profile,
    rawNewlines: Number(values['raw-newlines']),
    dialect: values.dialect,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stderr.write(
    `${out}: ${summary.bytes} bytes, ${summary.records} records (${summary.rawNewlineRecords} with raw newlines), ` +
      `${summary.sessions} sessions, values sha1 ${summary.valuesSha1}, ${seconds} s\n`,
  );
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
