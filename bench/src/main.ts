/**
 * `pnpm bench --commands [--runs 5] [--shapes a,b] [--size-mb 100] [--logs 10000] [--no-write] [--json]` times the
 * commands on every log shape and, when the machine stayed quiet, writes them to RESULTS.md (see `shape-report.ts`);
 * `pnpm bench --commands FILE` times them, and the libraries' rows, on one file only.
 *
 * `pnpm bench [FILE] [--raw-newlines-file FILE] [--runs 5] [--only a,b] [--no-correctness] [--json]`, or
 * `pnpm bench --memory [--json] [--sessions 1000000] [--text-bytes 1000000000] [--commands-only]` for the memory run
 * (`memory-run.ts`): `normalize` on the 1 GB stream, then `validate`, `summary` and `normalize` on a gzipped log of
 * many sessions and on one session with a huge text (smaller `--sessions` and `--text-bytes` for a quicker run), or
 * `pnpm bench --relay-memory [--json] [--records 10] [--record-mb 32] [--clients 20] [--text-mb 600]` for the
 * relay's (`relay-memory.ts`).
 *
 * Times every row on FILE (default: the generated 200 MB mixed corpus), each run in a fresh process, and checks
 * every row's output on the clean corpus, the raw-newline variant and a small corpus in 1-7 byte chunks.
 */

import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine } from 'cursor-stream/measurement';
import type { Approach } from './approaches/approach.ts';
import { APPROACHES, approachNamed } from './approaches/registry.ts';
import {
  bytesOf,
  correctnessCorpusOf,
  DEFAULT_CORPUS,
  DEFAULT_RAW_NEWLINE_CORPUS,
  DEFAULT_SEED,
  ensureCorpus,
  ensureDefaultCorpus,
  readSummary,
  withExpectedEvents,
  writeSplitUtf8Corpus,
} from './corpora.ts';
import { type CorrectnessCorpus, checkCorrectness } from './correctness.ts';
import {
  CLI_BUILT,
  FULL_COMMAND_MEMORY_SCALE,
  formatCommandMemoryRows,
  formatMemoryReport,
  MEMORY_CORPUS,
  runCommandMemory,
  runMemory,
} from './memory-run.ts';
import { FULL_RELAY_MEMORY_SCALE, formatRelayMemoryRows, runRelayMemory } from './relay-memory.ts';
import { type BenchReport, formatReport, formatReportJson } from './report.ts';
import { DEFAULT_LOG_COUNT, DEFAULT_SHAPE_MB, ensureLogShapes, shapeBytes } from './shape-corpora.ts';
import { displayPath, REPOSITORY_ROOT, spawnRun } from './spawn-run.ts';
import type { StartUpReport, TwoJobsReport } from './start-up-and-jobs.ts';
import { type Log, measureThroughput } from './throughput.ts';

const log: Log = (line) => process.stderr.write(`${line}\n`);
const RESULTS_FILE = join(REPOSITORY_ROOT, 'bench/RESULTS.md');

function positiveInteger(text: string, name: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${text}`);
  return value;
}

async function main(argv: readonly string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv.filter((arg) => arg !== '--'),
    allowPositionals: true,
    options: {
      runs: { type: 'string', default: '5' },
      only: { type: 'string' },
      'raw-newlines-file': { type: 'string' },
      'no-correctness': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      memory: { type: 'boolean', default: false },
      sessions: { type: 'string', default: String(FULL_COMMAND_MEMORY_SCALE.sessions) },
      'text-bytes': { type: 'string', default: String(FULL_COMMAND_MEMORY_SCALE.textBytes) },
      'commands-only': { type: 'boolean', default: false },
      commands: { type: 'boolean', default: false },
      scaling: { type: 'boolean', default: false },
      sizes: { type: 'string', default: '10,100,1000' },
      'relay-memory': { type: 'boolean', default: false },
      records: { type: 'string', default: String(FULL_RELAY_MEMORY_SCALE.records) },
      'record-mb': { type: 'string', default: String(FULL_RELAY_MEMORY_SCALE.recordMb) },
      clients: { type: 'string', default: String(FULL_RELAY_MEMORY_SCALE.clients) },
      'text-mb': { type: 'string', default: String(FULL_RELAY_MEMORY_SCALE.textMb) },
      shapes: { type: 'string' },
      'size-mb': { type: 'string', default: String(DEFAULT_SHAPE_MB) },
      logs: { type: 'string', default: String(DEFAULT_LOG_COUNT) },
      'no-write': { type: 'boolean', default: false },
    },
  });
  if (values['relay-memory']) {
    const rows = await runRelayMemory(
      {
        records: positiveInteger(values.records, '--records'),
        recordMb: positiveInteger(values['record-mb'], '--record-mb'),
        clients: positiveInteger(values.clients, '--clients'),
        textMb: positiveInteger(values['text-mb'], '--text-mb'),
      },
      log,
    );
    process.stdout.write(values.json ? `${JSON.stringify(rows, null, 2)}\n` : formatRelayMemoryRows(rows));
    return;
  }
  if (values.commands && !values.scaling && positionals[0] === undefined) {
    await benchShapes(values);
    return;
  }
  if (values.commands || values.scaling) {
    await benchCommands(values, positionals[0]);
    return;
  }
  if (values.memory) {
    const scale = {
      sessions: positiveInteger(values.sessions, '--sessions'),
      textBytes: positiveInteger(values['text-bytes'], '--text-bytes'),
    };
    const report = values['commands-only'] ? undefined : await runMemory(log);
    const commands = await runCommandMemory(scale, log);
    process.stdout.write(
      values.json
        ? `${JSON.stringify({ ...report, commands }, null, 2)}\n`
        : `${report === undefined ? '' : `${formatMemoryReport(report)}\n`}${formatCommandMemoryRows(commands)}`,
    );
    return;
  }
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1)
    throw new RangeError(`--runs must be a positive integer, got ${values.runs}`);
  const approaches = values.only === undefined ? APPROACHES : values.only.split(',').map(approachNamed);
  // pnpm runs the script from the bench folder; INIT_CWD is where the user typed the command.
  const base = process.env.INIT_CWD ?? process.cwd();
  const file = positionals[0] === undefined ? DEFAULT_CORPUS : resolve(base, positionals[0]);
  if (positionals[0] === undefined) await ensureDefaultCorpus(file, 0, log);
  let rawFile =
    values['raw-newlines-file'] === undefined ? undefined : resolve(base, values['raw-newlines-file']);
  if (rawFile === undefined && positionals[0] === undefined && !values['no-correctness']) {
    rawFile = DEFAULT_RAW_NEWLINE_CORPUS;
    await ensureDefaultCorpus(rawFile, 1, log);
  }

  const summary = readSummary(file);
  const bytes = bytesOf(file);
  const rows = await measureThroughput(approaches, file, bytes, runs, log);
  const correctness = values['no-correctness']
    ? { corpora: [], verdicts: [] }
    : await runCorrectness(approaches, file, rawFile);
  const report: BenchReport = {
    machine: describeMachine(),
    corpus: {
      file: displayPath(file),
      bytes,
      records: summary?.records ?? rows.find((row) => row.name === 'ours-callback')?.records ?? Number.NaN,
      ...(summary === undefined
        ? {}
        : { generator: { seed: summary.seed, profile: summary.profile, dialect: summary.dialect } }),
    },
    runs,
    rows,
    correctness,
  };
  process.stdout.write(values.json ? formatReportJson(report) : formatReport(report));
}

/** The whole-process command rows, on one file or, with `--scaling`, on generated corpora of each size. */
async function benchCommands(
  values: { runs: string; only?: string; json: boolean; scaling: boolean; sizes: string },
  positional: string | undefined,
): Promise<void> {
  const { COMMAND_ROWS, commandRowsNamed, formatCommandReport, measureCommands } = await import(
    './command-rows.ts'
  );
  if (!existsSync(CLI_BUILT)) throw new Error('the CLI is not built: run `pnpm build` first');
  const runs = positiveInteger(values.runs, '--runs');
  const rows = values.only === undefined ? COMMAND_ROWS : commandRowsNamed(values.only.split(','));
  const files: string[] = [];
  if (values.scaling) {
    for (const size of values.sizes.split(',').map((text) => positiveInteger(text, '--sizes'))) {
      const file = scalingCorpusOf(size);
      await ensureCorpus(file, { seed: DEFAULT_SEED, targetBytes: size * 1e6, rawNewlines: 0 }, log);
      files.push(file);
    }
  } else {
    const file =
      positional === undefined ? DEFAULT_CORPUS : resolve(process.env.INIT_CWD ?? process.cwd(), positional);
    if (positional === undefined) await ensureDefaultCorpus(file, 0, log);
    files.push(file);
  }
  const reports = [];
  for (const file of files) {
    const report = await measureCommands(rows, file, bytesOf(file), runs, log);
    reports.push({ ...report, file: displayPath(file) });
  }
  process.stdout.write(
    values.json
      ? `${JSON.stringify(reports, null, 2)}\n`
      : reports.map((report) => formatCommandReport(report)).join('\n'),
  );
}

/**
 * The command rows on every log shape (see `shape-corpora.ts`), then RESULTS.md's command section rewritten with
 * them, unless the machine was busy, the run partial or `--no-write` given.
 */
async function benchShapes(values: {
  runs: string;
  json: boolean;
  shapes?: string;
  'size-mb': string;
  logs: string;
  'no-write': boolean;
}): Promise<void> {
  const { SHAPE_FILE_ROWS, SHAPE_FOLDER_ROWS, measureCommands } = await import('./command-rows.ts');
  const { QUIET_LOAD, formatShapeReports, refusalOf, writeCommandSection } = await import(
    './shape-report.ts'
  );
  if (!existsSync(CLI_BUILT)) throw new Error('the CLI is not built: run `pnpm build` first');
  const runs = positiveInteger(values.runs, '--runs');
  const options = {
    sizeMb: positiveInteger(values['size-mb'], '--size-mb'),
    logCount: positiveInteger(values.logs, '--logs'),
    ...(values.shapes === undefined ? {} : { only: values.shapes.split(',') }),
  };
  const { formatStartUp, formatTwoJobs, measureStartUp, measureTwoJobs } = await import(
    './start-up-and-jobs.ts'
  );
  const shapes = await ensureLogShapes(options, log);
  const reports = [];
  const fixedCosts: { startUp?: StartUpReport; twoJobs?: TwoJobsReport } = {};
  for (const shape of shapes) {
    log(`${shape.name}: ${shape.description}`);
    if (shape.kind === 'start-up')
      fixedCosts.startUp = await measureStartUp(START_UP_RUNS_PER_RUN * runs, log);
    else if (shape.kind === 'two-jobs')
      fixedCosts.twoJobs = await measureTwoJobs(shape.path, shapeBytes(shape), TWO_JOBS_RUNS, log);
    else {
      const rows = shape.kind === 'folder' ? SHAPE_FOLDER_ROWS : SHAPE_FILE_ROWS;
      reports.push({ shape, report: await measureCommands(rows, shape.path, shapeBytes(shape), runs, log) });
    }
  }
  const date = new Date().toISOString().slice(0, 10);
  const { startUp, twoJobs } = fixedCosts;
  const otherLoads = [
    ...(startUp === undefined ? [] : [startUp.loadMax]),
    ...(twoJobs === undefined ? [] : [twoJobs.loadAtStart]),
  ];
  const text = [
    formatShapeReports(reports, date, otherLoads),
    ...(startUp === undefined ? [] : [`### start-up\n\n${formatStartUp(startUp)}`]),
    ...(twoJobs === undefined ? [] : [`### two jobs\n\n${formatTwoJobs(twoJobs)}`]),
  ].join('\n');
  process.stdout.write(
    values.json ? `${JSON.stringify({ shapes: reports, ...fixedCosts }, null, 2)}\n` : text,
  );
  const complete =
    values.shapes === undefined &&
    options.sizeMb === DEFAULT_SHAPE_MB &&
    options.logCount === DEFAULT_LOG_COUNT &&
    runs >= 5;
  const refusal = values['no-write'] ? 'asked not to (--no-write)' : refusalOf(reports, complete, otherLoads);
  if (refusal !== undefined) {
    log(`RESULTS.md not written (it takes runs whose 1-minute load stays at most ${QUIET_LOAD}): ${refusal}`);
    return;
  }
  await writeCommandSection(RESULTS_FILE, text);
  log(`wrote the command section of ${displayPath(RESULTS_FILE)}`);
}

/** Start-up runs are short and noisy: each round of the commands takes this many of them. */
const START_UP_RUNS_PER_RUN = 3;
/** Rounds of the two-jobs measurement: each runs every command twice on a file of a gigabyte. */
const TWO_JOBS_RUNS = 3;

/** The generated corpus of `size` MB; the default and the memory run's corpora are the 200 and 1000 MB ones. */
function scalingCorpusOf(size: number): string {
  if (size === 200) return DEFAULT_CORPUS;
  if (size === 1000) return MEMORY_CORPUS;
  return join(REPOSITORY_ROOT, `corpus/generated/mixed-${size}mb.ndjson`);
}

async function runCorrectness(
  approaches: readonly Approach[],
  file: string,
  rawFile: string | undefined,
): Promise<BenchReport['correctness']> {
  const directory = await mkdtemp(join(tmpdir(), 'cursor-stream-bench-'));
  try {
    const corpora: CorrectnessCorpus[] = [];
    for (const [name, path] of [
      ['clean', file],
      ['raw-newlines', rawFile],
    ] as const) {
      const summary = path === undefined ? undefined : readSummary(path);
      if (path === undefined) continue;
      if (summary === undefined) log(`${path}: no generator summary beside it, so no correctness check`);
      else {
        const corpus = correctnessCorpusOf(name, path, 'file', summary);
        corpora.push(await withExpectedEvents(corpus, summary, approaches, corpora[0]));
      }
    }
    corpora.push(await writeSplitUtf8Corpus(directory, approaches));
    log(`correctness: ${corpora.map((corpus) => corpus.name).join(', ')}`);
    const verdicts = await checkCorrectness(approaches, corpora, (approach, corpus) =>
      spawnRun(approach.name, corpus.file, corpus.chunking, true),
    );
    return {
      corpora: corpora.map(({ file: _file, expectedEvents: _events, ...rest }) => rest),
      verdicts,
    };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
