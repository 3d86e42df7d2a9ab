/** The report of `cursor-stream bench`: medians per row and file, as a table or as JSON. */

import { escapeControls, formatCount } from '@cursor-stream/core/text';
import { formatTable } from '@cursor-stream/inspect/terminal';
import { type BenchRowName, type BenchRun, REFERENCE_ROW } from './bench-rows.ts';
import { type MachineInfo, median } from './measurement.ts';

/** One row of one file: medians over the runs. */
export interface BenchRowReport {
  name: BenchRowName;
  /** Decompressed input MB (10^6 bytes) per second, from the median time. */
  mbPerSec: number;
  /** Canonical events per second (records for the reference loop), from the median time. */
  eventsPerSec: number;
  /** `mbPerSec` over the reference loop's on the same file. */
  ratio: number;
  /** Median of the runs' peak RSS, MB (10^6 bytes). */
  peakRssMb: number;
}

/** One file's rows. */
export interface BenchFileReport {
  path: string;
  /** Decompressed bytes. */
  bytes: number;
  rows: BenchRowReport[];
}

/** What `bench --json` prints. */
export interface BenchReport {
  machine: MachineInfo;
  runs: number;
  files: BenchFileReport[];
}

function rowReport(name: BenchRowName, runs: readonly BenchRun[]): Omit<BenchRowReport, 'ratio'> {
  const seconds = median(runs.map((run) => run.ms)) / 1000;
  return {
    name,
    mbPerSec: median(runs.map((run) => run.bytes)) / 1e6 / seconds,
    eventsPerSec: median(runs.map((run) => run.events)) / seconds,
    peakRssMb: median(runs.map((run) => run.peakRssMb)),
  };
}

/** One file's report from every row's runs. */
export function fileReport(
  path: string,
  runsByRow: ReadonlyMap<BenchRowName, readonly BenchRun[]>,
): BenchFileReport {
  const rows = [...runsByRow].map(([name, runs]) => rowReport(name, runs));
  const reference = rows.find((row) => row.name === REFERENCE_ROW)?.mbPerSec ?? Number.NaN;
  const bytes = median(runsByRow.get(REFERENCE_ROW)?.map((run) => run.bytes) ?? [Number.NaN]);
  return { path, bytes, rows: rows.map((row) => ({ ...row, ratio: row.mbPerSec / reference })) };
}

const fixed = (value: number, digits: number): string =>
  Number.isFinite(value) ? value.toFixed(digits) : '-';
const grouped = (value: number): string => (Number.isFinite(value) ? formatCount(value) : '-');

/** The report as text: the machine, then one table per file. */
export function formatBenchText(report: BenchReport): string {
  const { machine } = report;
  const lines = [
    `${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB, Node ${machine.node}, ${machine.os}`,
    `Median of ${report.runs} runs, each in a fresh process; 1 MB = 10^6 B; ratio to the reference loop.`,
  ];
  for (const file of report.files) {
    lines.push('', `${escapeControls(file.path)}: ${grouped(file.bytes)} bytes`);
    const header = ['row', 'MB/s', 'events/s', 'ratio', 'peak RSS MB'].map((text) => ({ text }));
    const rows = file.rows.map((row) =>
      [
        row.name,
        fixed(row.mbPerSec, 1),
        grouped(row.eventsPerSec),
        fixed(row.ratio, 2),
        fixed(row.peakRssMb, 0),
      ].map((text) => ({ text })),
    );
    lines.push(...formatTable([header, ...rows], '  '));
  }
  return `${lines.join('\n')}\n`;
}

/** The report as JSON: `{ machine, runs, files: [{ path, bytes, rows: [{ name, mbPerSec, ... }] }] }`. */
export function formatBenchJson(report: BenchReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
