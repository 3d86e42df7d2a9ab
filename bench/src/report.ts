/** The report of a run: a Markdown table for people, or one JSON document with `--json`. */

import type { MachineInfo } from 'cursor-stream/measurement';
import { type CorrectnessCorpus, describeVerdict, type Verdict } from './correctness.ts';
import type { ThroughputRow } from './throughput.ts';

/** The corpus a report measured. */
export interface CorpusInfo {
  /** Relative to the repository root when the file is inside it. */
  file: string;
  bytes: number;
  records: number;
  /** The generator's settings when the file has a summary beside it. */
  generator?: { seed: number; profile: string; dialect: string };
}

/** Everything one `pnpm bench` measured. */
export interface BenchReport {
  machine: MachineInfo;
  corpus: CorpusInfo;
  runs: number;
  rows: ThroughputRow[];
  correctness: { corpora: Omit<CorrectnessCorpus, 'file' | 'expectedEvents'>[]; verdicts: Verdict[] };
}

const fixed = (value: number, digits: number): string =>
  Number.isFinite(value) ? value.toFixed(digits) : '-';
const grouped = (value: number): string => Math.round(value).toLocaleString('en-US');

/** The report as Markdown: machine, corpus, throughput table, correctness table. */
export function formatReport(report: BenchReport): string {
  const { machine, corpus } = report;
  const lines = [
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB, Node ${machine.node}, ${machine.os}`,
    `Corpus: ${corpus.file}: ${grouped(corpus.bytes)} bytes, ${grouped(corpus.records)} records` +
      (corpus.generator === undefined
        ? ''
        : ` (generated: seed ${corpus.generator.seed}, profile ${corpus.generator.profile}, dialect ${corpus.generator.dialect})`),
    `Each run in a fresh process, libraries loaded before the clock; median of ${report.runs} runs; 1 MB = 10^6 B.`,
    '',
    '| approach | MB/s | records or events/s | ratio | paired ratio | ms (min-max) | peak RSS MB | records or events |',
    '|---|---:|---:|---:|---:|---|---:|---:|',
    ...report.rows.map(
      (row) =>
        `| ${row.name}: ${row.label} | ${fixed(row.mbPerSec, 1)} | ${grouped(row.eventsPerSec)} | ${fixed(row.ratio, 2)} | ` +
        `${fixed(row.pairedRatio, 2)} | ${grouped(row.medianMs)} (${grouped(row.minMs)}-${grouped(row.maxMs)}) | ` +
        `${fixed(row.peakRssMb, 0)} | ${grouped(row.records)}${row.stopped === undefined ? '' : ' (stopped)'} |`,
    ),
    '',
    ...formatCorrectness(report.correctness),
  ];
  return `${lines.join('\n')}\n`;
}

function formatCorrectness({ corpora, verdicts }: BenchReport['correctness']): string[] {
  if (corpora.length === 0) return [];
  const approaches = [...new Set(verdicts.map((verdict) => verdict.approach))];
  const cell = (approach: string, corpus: string): string => {
    const verdict = verdicts.find((v) => v.approach === approach && v.corpus === corpus);
    return verdict === undefined ? '-' : describeVerdict(verdict);
  };
  return [
    "Correctness (records delivered and values digest against the generator's):",
    '',
    `| approach | ${corpora.map((c) => `${c.name} (${c.chunking === 'odd' ? '1-7 B chunks' : '64 KiB reads'})`).join(' | ')} |`,
    `|---|${corpora.map(() => '---').join('|')}|`,
    ...approaches.map(
      (approach) => `| ${approach} | ${corpora.map((c) => cell(approach, c.name)).join(' | ')} |`,
    ),
  ];
}

/** The report as JSON: `{ machine, corpus, rows: [{ name, mbPerSec, eventsPerSec, ratio, peakRssMb, ... }], ... }`. */
export function formatReportJson(report: BenchReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
