/**
 * A small run of the benchmark for CI: every row reads small generated corpora, and what it delivers is checked
 * against the generator's record count and values digest. No timing is asserted.
 */

import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CANONICAL_EVENT_TYPES, type CanonicalEvent } from '@cursor-stream/core';
import { describeMachine } from 'cursor-stream/measurement';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCorpus } from '../../corpus/generator/index.ts';
import { referenceLoop } from '../src/approaches/hand-written.ts';
import { TYPES_WITHOUT_REASONING } from '../src/approaches/pipeline.ts';
import { LINE_DECODING_LOOP_NAME, REFERENCE_LOOP_NAME } from '../src/approaches/plain-loops.ts';
import { APPROACHES, approachNamed } from '../src/approaches/registry.ts';
import {
  bundleBaselineRunner,
  COMMAND_ROWS,
  commandRowsNamed,
  formatCommandReport,
  measureCommands,
  runCommandRow,
} from '../src/command-rows.ts';
import { correctnessCorpusOf, withExpectedEvents, writeSplitUtf8Corpus } from '../src/corpora.ts';
import { type CorrectnessCorpus, judge } from '../src/correctness.ts';
import { inputOf } from '../src/inputs.ts';
import { renderChart } from '../src/render-chart.ts';
import { type BenchReport, formatReport, formatReportJson } from '../src/report.ts';
import { runOnce } from '../src/run-once.ts';
import { measureThroughput } from '../src/throughput.ts';
import { runWholeProcess } from '../src/whole-process.ts';

const PARSING_ROWS = APPROACHES.filter((approach) => approach.group !== 'overhead');
const CORPUS_OPTIONS = { seed: 11, targetBytes: 300_000 } as const;

let directory: string;
let clean: CorrectnessCorpus;
let rawNewlines: CorrectnessCorpus;
let splitUtf8: CorrectnessCorpus;
let cleanSessions = 0;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'bench-smoke-'));
  const cleanFile = join(directory, 'clean.ndjson');
  const rawFile = join(directory, 'raw-newlines.ndjson');
  const cleanSummary = await writeCorpus(cleanFile, CORPUS_OPTIONS);
  cleanSessions = cleanSummary.sessions;
  clean = await withExpectedEvents(
    correctnessCorpusOf('clean', cleanFile, 'file', cleanSummary),
    cleanSummary,
    APPROACHES,
  );
  const rawSummary = await writeCorpus(rawFile, { ...CORPUS_OPTIONS, rawNewlines: 1 });
  expect(rawSummary.rawNewlineRecords).toBeGreaterThan(0);
  rawNewlines = await withExpectedEvents(
    correctnessCorpusOf('raw-newlines', rawFile, 'file', rawSummary),
    rawSummary,
    APPROACHES,
    clean,
  );
  splitUtf8 = await writeSplitUtf8Corpus(directory, APPROACHES);
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function verdictOn(corpus: CorrectnessCorpus, name: string) {
  const approach = PARSING_ROWS.find((candidate) => candidate.name === name);
  if (approach === undefined) throw new Error(name);
  const result = await runOnce(approach, { file: corpus.file, chunking: corpus.chunking, digest: true });
  return judge(approach, corpus, result);
}

describe.each(PARSING_ROWS.map((approach) => [approach.name, approach] as const))(
  'the %s row',
  (name, approach) => {
    it('delivers every record of the clean corpus with identical values', async () => {
      expect((await verdictOn(clean, name)).kind).toBe('exact');
    });

    it('survives characters split across 1-7 byte chunks', async () => {
      // A row that reads the whole file ignores the chunking; its values must still be exact.
      expect((await verdictOn(splitUtf8, name)).kind).toBe('exact');
    });

    it(
      approach.survivesRawNewlines
        ? 'reads raw line breaks inside strings exactly'
        : 'is flagged as losing records on raw line breaks inside strings',
      async () => {
        const verdict = await verdictOn(rawNewlines, name);
        if (approach.survivesRawNewlines) expect(verdict.kind).toBe('exact');
        else expect(['stopped', 'lost', 'corrupted']).toContain(verdict.kind);
        expect(verdict.knownLossy).toBe(!approach.survivesRawNewlines);
      },
    );
  },
);

describe('the reference loop read as the command rows read it', () => {
  it('gives the same records, problems and values read with readSync as through a read stream', async () => {
    for (const corpus of [clean, rawNewlines, splitUtf8]) {
      const streamed = await runOnce(referenceLoop, {
        file: corpus.file,
        chunking: corpus.chunking,
        digest: true,
      });
      const read = await runOnce(referenceLoop, {
        file: corpus.file,
        chunking: corpus.chunking,
        reading: 'sync',
        digest: true,
      });
      expect(read).toMatchObject({
        records: streamed.records,
        problems: streamed.problems,
        digest: streamed.digest,
      });
      expect(read.records).toBeGreaterThan(0);
    }
  });

  it('reads every file of a folder, one after another', async () => {
    const folder = join(directory, 'folder');
    await mkdir(folder);
    await copyFile(clean.file, join(folder, 'a.ndjson'));
    await copyFile(rawNewlines.file, join(folder, 'b.ndjson'));
    const whole = await runOnce(referenceLoop, {
      file: folder,
      chunking: 'file',
      reading: 'sync',
      digest: false,
    });
    const [a, b] = await Promise.all(
      [clean, rawNewlines].map((corpus) =>
        runOnce(referenceLoop, { file: corpus.file, chunking: 'file', digest: false }),
      ),
    );
    expect(whole.records).toBe((a?.records ?? 0) + (b?.records ?? 0));
    expect(whole.problems).toBe((a?.problems ?? 0) + (b?.problems ?? 0));
  });
});

describe('the plain loops in a process of their own, as the command rows run them', () => {
  it('count the records and problems the same loops count in the child runner, on a file and a folder', async () => {
    const runner = await bundleBaselineRunner();
    try {
      const folder = join(directory, 'loop-folder');
      await mkdir(folder);
      await copyFile(clean.file, join(folder, 'a.ndjson'));
      await copyFile(rawNewlines.file, join(folder, 'b.ndjson'));
      for (const name of [REFERENCE_LOOP_NAME, LINE_DECODING_LOOP_NAME]) {
        for (const path of [clean.file, rawNewlines.file, folder]) {
          const run = await runWholeProcess(runner.loopScript, ['--loop', name, '--file', path], [], 'keep');
          const own = JSON.parse(run.stdout ?? '') as { records: number; problems: number };
          const inRunner = await runOnce(approachNamed(name), {
            file: path,
            chunking: 'file',
            reading: 'sync',
            digest: false,
          });
          expect(own).toEqual({ records: inRunner.records, problems: inRunner.problems });
          expect(own.records).toBeGreaterThan(0);
        }
      }
    } finally {
      await runner.dispose();
    }
  }, 60_000);
});

describe('the rows that deliver canonical events', () => {
  async function eventsOf(name: string, corpus: CorrectnessCorpus): Promise<CanonicalEvent[]> {
    const parse = await approachNamed(name).load();
    const events: CanonicalEvent[] = [];
    await parse(inputOf(corpus.file, corpus.chunking), {
      value: (value) => events.push(value as CanonicalEvent),
      problem: () => {},
    });
    return events;
  }

  it.each(['pipeline', 'pipeline-reducer', 'pipeline-no-reasoning'])(
    '%s is judged on events, the same on the raw-newline corpus as on the clean one',
    async (name) => {
      for (const corpus of [clean, rawNewlines, splitUtf8]) {
        const verdict = await verdictOn(corpus, name);
        expect(verdict).toMatchObject({ kind: 'exact', unit: 'events' });
        expect(verdict.records).toBe(corpus.expectedEvents?.[name]?.events);
      }
      expect(rawNewlines.expectedEvents?.[name]).toEqual(clean.expectedEvents?.[name]);
    },
  );

  it('asks for every type but reasoning when filtering reasoning out', () => {
    expect([...TYPES_WITHOUT_REASONING].sort()).toEqual(
      CANONICAL_EVENT_TYPES.filter((type) => !type.startsWith('reasoning-')).sort(),
    );
  });

  it("filtering reasoning out gives the full pipeline's events without the reasoning ones", async () => {
    const all = await eventsOf('pipeline', clean);
    const filtered = await eventsOf('pipeline-no-reasoning', clean);
    expect(all.some((event) => event.type === 'reasoning-delta')).toBe(true);
    expect(filtered).toEqual(all.filter((event) => !event.type.startsWith('reasoning-')));
    expect(filtered.filter((event) => event.type === 'finish')).toHaveLength(cleanSessions);
  });
});

describe('a timed run in fresh processes', () => {
  it('reports rows with throughput, ratio to the reference loop and peak RSS', async () => {
    const approaches = APPROACHES.filter((a) => a.name === 'ours-callback' || a.name === 'reference-loop');
    const rows = await measureThroughput(approaches, clean.file, 300_000, 1, () => {});
    expect(rows.map((row) => row.name)).toEqual(['ours-callback', 'reference-loop']);
    for (const row of rows) {
      expect(row.records).toBe(clean.expectedRecords);
      expect(row.mbPerSec).toBeGreaterThan(0);
      expect(row.peakRssMb).toBeGreaterThan(0);
    }
    expect(rows[1]?.ratio).toBe(1);
    const report: BenchReport = {
      machine: describeMachine(),
      corpus: { file: clean.file, bytes: 300_000, records: clean.expectedRecords },
      runs: 1,
      rows,
      correctness: { corpora: [], verdicts: [] },
    };
    const json = JSON.parse(formatReportJson(report)) as { rows: Record<string, unknown>[] };
    expect(Object.keys(json)).toEqual(expect.arrayContaining(['machine', 'corpus', 'rows']));
    expect(Object.keys(json.rows[0] ?? {})).toEqual(
      expect.arrayContaining(['name', 'mbPerSec', 'eventsPerSec', 'ratio', 'peakRssMb']),
    );
    expect(formatReport(report)).toContain('| ours-callback: ');
    const svg = renderChart(report);
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.match(/<rect [^>]*height="22"/g)).toHaveLength(rows.length);
    expect(svg).toContain('>reference loop</text>');
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
  });
});

/** The 1-minute load as it is, without waiting for it to fall. */
const readLoad = async (): Promise<number> => loadavg()[0] ?? Number.NaN;

describe('the command rows, each a whole process', () => {
  it('times every command and baseline once, with ratios to the reference loop, peak RSS and the load', async () => {
    // On a busy machine (the rest of the tests) the benchmark's wait for a quiet one would outlast the test.
    const report = await measureCommands(COMMAND_ROWS, clean.file, 300_000, 1, () => {}, readLoad);
    expect(report.rows.map((row) => row.name)).toEqual(COMMAND_ROWS.map((row) => row.name));
    for (const row of report.rows) {
      expect(row.exitCodes).toEqual([0]);
      expect(row.peakRssMb).toBeGreaterThan(0);
      if (COMMAND_ROWS.find((r) => r.name === row.name)?.kind === 'baseline')
        expect(row.records).toBe(clean.expectedRecords);
      else expect(row.records).toBeUndefined();
    }
    expect(report.rows.find((row) => row.name === 'reference-loop')?.ratio).toBe(1);
    expect(report.loadAtStart).toHaveLength(3);
    const table = formatCommandReport(report);
    expect(table).toContain('load average at start');
    expect(table).toContain('| cursor-stream normalize --jobs 1 > /dev/null |');
    expect(table).toContain('| cursor-stream normalize --jobs 2 > /dev/null |');
  }, 180_000);

  it("runs the commands on the corpus with their real output: the summary's sessions, every event", async () => {
    const runner = await bundleBaselineRunner();
    try {
      const [summary, normalize, validate] = commandRowsNamed([
        'cli-summary-json',
        'cli-normalize',
        'cli-validate',
      ]);
      if (summary === undefined || normalize === undefined || validate === undefined) throw new Error('rows');
      const summarized = await runCommandRow(summary, clean.file, runner, 'keep');
      expect((JSON.parse(summarized.stdout ?? '') as { sessions: unknown[] }).sessions).toHaveLength(
        cleanSessions,
      );
      const normalized = await runCommandRow(normalize, clean.file, runner, 'keep');
      const events = (normalized.stdout ?? '')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as CanonicalEvent);
      expect(events).toHaveLength(clean.expectedEvents?.pipeline?.events ?? Number.NaN);
      expect(events.filter((event) => event.type === 'finish')).toHaveLength(cleanSessions);
      expect((await runCommandRow(validate, clean.file, runner, 'keep')).stdout).toContain('no problems');
    } finally {
      await runner.dispose();
    }
  }, 180_000);
});
