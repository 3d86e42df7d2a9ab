/**
 * The honest command report: which runs may be written to RESULTS.md, what replaces its command section, and the
 * reference loop reading a folder of logs one after another. No timing is asserted.
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeMachine } from 'cursor-stream/measurement';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approachNamed } from '../src/approaches/registry.ts';
import type { CommandReport, CommandTableRow } from '../src/command-rows.ts';
import { runOnce } from '../src/run-once.ts';
import {
  formatShapeMatrix,
  highestLoad,
  QUIET_LOAD,
  RESULTS_BEGIN,
  RESULTS_END,
  refusalOf,
  type ShapeReport,
  withCommandSection,
} from '../src/shape-report.ts';
import {
  formatStartUp,
  formatTwoJobs,
  START_UP_TARGET,
  type TimedRow,
  TWO_JOBS_TARGET,
} from '../src/start-up-and-jobs.ts';

function row(name: string, ratio: number, loads: [number, number]): CommandTableRow {
  return {
    name,
    label: name,
    medianMs: 100 / ratio,
    minMs: 1,
    maxMs: 2,
    mbPerSec: 10 * ratio,
    ratio,
    pairedRatio: ratio + 0.01,
    peakRssMb: 50,
    exitCodes: [0],
    loadMin: loads[0],
    loadMax: loads[1],
  };
}

function shapeReport(name: string, loads: [number, number], start = 0.5, end = 0.5): ShapeReport {
  const report: CommandReport = {
    machine: describeMachine(),
    loadAtStart: [start, 1, 1],
    loadAtEnd: [end, 1, 1],
    file: name,
    bytes: 1e6,
    runs: 5,
    rows: [
      row('cli-summary-json', 2.5, loads),
      row('cli-validate', 1.25, loads),
      row('reference-loop', 1, loads),
    ],
  };
  return { shape: { name, description: name, path: name, kind: 'file' }, report };
}

describe('the command report', () => {
  it('is written only for a complete run whose load stayed at most the quiet threshold', () => {
    const quiet = [shapeReport('a', [0.4, 1.2]), shapeReport('b', [0.9, QUIET_LOAD])];
    expect(refusalOf(quiet, true)).toBeUndefined();
    expect(refusalOf(quiet, false)).toMatch(/not every shape/);
    const busyRow = [shapeReport('a', [0.4, 1.2]), shapeReport('b', [0.9, 3.25])];
    expect(highestLoad(busyRow)).toBe(3.25);
    expect(refusalOf(busyRow, true)).toMatch(/reached 3\.25, above 1\.5/);
    // A load seen only as the run ended counts as much as one seen between runs.
    expect(refusalOf([shapeReport('a', [0.4, 1.2], 0.5, 1.6)], true)).toMatch(/reached 1\.60/);
    // So does one seen while start-up or two jobs were measured.
    expect(refusalOf(quiet, true, [0.7, 1.8])).toMatch(/reached 1\.80/);
    expect(refusalOf(quiet, true, [0.7, 1.1])).toBeUndefined();
  });

  it('puts every shape in one matrix of ratios and paired ratios', () => {
    const matrix = formatShapeMatrix([
      shapeReport('profile-small', [0.4, 1.2]),
      shapeReport('logs', [1, 1.1]),
    ]);
    const lines = matrix.trimEnd().split('\n');
    expect(lines[0]).toBe('| shape | reference loop MB/s | summary --json | validate | 1-min load |');
    expect(lines[2]).toBe('| profile-small | 10.0 | 2.50x (2.51x) | 1.25x (1.26x) | 0.40-1.20 |');
    expect(lines).toHaveLength(4);
  });

  it("replaces only the text between RESULTS.md's markers, adding them when missing", () => {
    const before = `# Results\n\nintro\n\n${RESULTS_BEGIN}\nold figures\n${RESULTS_END}\n\n## Memory\n\nkept\n`;
    const after = withCommandSection(before, 'new table\n');
    expect(after).toBe(
      `# Results\n\nintro\n\n${RESULTS_BEGIN}\n\nnew table\n\n${RESULTS_END}\n\n## Memory\n\nkept\n`,
    );
    expect(withCommandSection(after, 'newer')).toContain('\nnewer\n');
    expect(withCommandSection(after, 'newer')).not.toContain('new table');
    expect(withCommandSection('# Results\n', 'table')).toBe(
      `# Results\n\n${RESULTS_BEGIN}\n\ntable\n\n${RESULTS_END}\n`,
    );
  });
});

function timedRow(label: string, ratio: number): TimedRow {
  return { label, medianMs: 100, ratio, pairedRatio: ratio, exitCodes: [0], loadMin: 0.5, loadMax: 0.6 };
}

describe('the fixed costs', () => {
  it('judge start-up as a multiple of a bare node, at most the target', () => {
    const text = formatStartUp({
      runs: 15,
      bareNodeMs: 40,
      rows: [timedRow('cursor-stream --version', START_UP_TARGET), timedRow('cursor-stream validate', 1.51)],
      firstRun: timedRow('cursor-stream summary x.ndjson, first run', 2.25),
      loadMax: 0.6,
    });
    expect(text).toContain('| cursor-stream --version | 100 | 1.50x | 1.50x | met | 0 | 0.50-0.60 |');
    expect(text).toContain('| cursor-stream validate | 100 | 1.51x | 1.51x | not met |');
    // A first run is reported beside the table, not judged in it.
    expect(text).not.toContain('| cursor-stream summary x.ndjson, first run |');
    expect(text).toContain('`cursor-stream summary x.ndjson, first run` 100 ms, 2.25x a bare node');
  });

  it('judge two jobs by their speed-up over one, at least the target', () => {
    const text = formatTwoJobs({
      file: 'big.ndjson',
      bytes: 1e9,
      runs: 3,
      rows: [timedRow('summary --jobs 2', TWO_JOBS_TARGET), timedRow('validate --jobs 2', 1.69)],
      loadAtStart: 0.6,
    });
    expect(text).toContain('`big.ndjson` (1000 MB)');
    expect(text).toContain('| summary --jobs 2 | 100 | 1.70x | 1.70x | met |');
    expect(text).toContain('| validate --jobs 2 | 100 | 1.69x | 1.69x | not met |');
  });
});

describe('the reference loop on a folder', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'bench-folder-'));
    await writeFile(join(directory, 'a.ndjson'), '{"type":"a"}\n{"type":"b"}\n');
    await writeFile(join(directory, 'b.ndjson'), '{"type":"c"}\nnot json\n');
    await writeFile(join(directory, 'c.ndjson'), '{"type":"d"}');
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('reads every file one after another, a last line without a line feed too', async () => {
    const result = await runOnce(approachNamed('reference-loop'), {
      file: directory,
      chunking: 'file',
      digest: false,
    });
    expect(result.records).toBe(4);
    expect(result.problems).toBe(1);
  });
});
