/**
 * The correctness pass: each row reads a corpus whose expected record count and values digest are known (from the
 * generator's summary), and gets a verdict. Corpora: the clean corpus, its raw-newline variant (same values, line
 * breaks inside ids and texts written as raw LF bytes), and a small corpus fed 1 to 7 bytes at a time so that
 * multi-byte characters are cut across chunks.
 */

import type { Approach } from './approaches/approach.ts';
import type { EventsExpectation } from './expected-events.ts';
import type { Chunking } from './inputs.ts';
import type { RunResult } from './run-once.ts';

/** A corpus with what a correct reader delivers from it. */
export interface CorrectnessCorpus {
  /** Short name for the report, e.g. `raw-newlines`. */
  name: string;
  file: string;
  chunking: Chunking;
  expectedRecords: number;
  expectedDigest: string;
  /**
   * What each row delivering canonical events must give, by row name (see `expected-events.ts`). A row without an
   * entry is not judged on this corpus.
   */
  expectedEvents?: Readonly<Record<string, EventsExpectation>>;
}

/**
 * How a row did on a corpus:
 * - `exact`: every record, identical values.
 * - `stopped`: the row gave up at an error; what came before was delivered.
 * - `lost`: the row went on but delivered fewer records (the rest were reported as bad lines, or silently dropped).
 * - `corrupted`: as many records or more, but different values (e.g. U+FFFD from a split character).
 * - `not-applicable`: the row reads the whole file, so the chunking under test does not reach it.
 */
export type VerdictKind = 'exact' | 'stopped' | 'lost' | 'corrupted' | 'not-applicable';

/** One row on one corpus. */
export interface Verdict {
  approach: string;
  corpus: string;
  kind: VerdictKind;
  /** Records delivered, or events for a row that delivers events. */
  records: number;
  expectedRecords: number;
  unit: 'records' | 'events';
  problems: number;
  stopped?: string;
  /** Whether the row is documented as unable to read raw line breaks inside strings. */
  knownLossy: boolean;
}

/** Runs a row once on a corpus: in a child process for `pnpm bench`, in process for the smoke test. */
export type RunCorrectness = (approach: Approach, corpus: CorrectnessCorpus) => Promise<RunResult>;

/** Judges every row on every corpus. */
export async function checkCorrectness(
  approaches: readonly Approach[],
  corpora: readonly CorrectnessCorpus[],
  run: RunCorrectness,
): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  for (const corpus of corpora) {
    for (const approach of approaches) {
      if (approach.group === 'overhead') continue;
      if (approach.delivers === 'events' && corpus.expectedEvents?.[approach.name] === undefined) continue;
      if (approach.readsWholeFile === true && corpus.chunking !== 'file') {
        verdicts.push({ ...base(approach, corpus), kind: 'not-applicable', records: 0, problems: 0 });
        continue;
      }
      verdicts.push(judge(approach, corpus, await run(approach, corpus)));
    }
  }
  return verdicts;
}

/** What a row must deliver from a corpus: its records, or the events the normalizer makes of them. */
function expectationOf(approach: Approach, corpus: CorrectnessCorpus): { count: number; digest: string } {
  if (approach.delivers !== 'events') return { count: corpus.expectedRecords, digest: corpus.expectedDigest };
  const events = corpus.expectedEvents?.[approach.name];
  return { count: events?.events ?? Number.NaN, digest: events?.digest ?? '' };
}

function base(approach: Approach, corpus: CorrectnessCorpus) {
  return {
    approach: approach.name,
    corpus: corpus.name,
    expectedRecords: expectationOf(approach, corpus).count,
    unit: approach.delivers ?? 'records',
    knownLossy: !approach.survivesRawNewlines,
  };
}

/** The verdict of one run against what the corpus should give. */
export function judge(approach: Approach, corpus: CorrectnessCorpus, result: RunResult): Verdict {
  const verdict: Verdict = {
    ...base(approach, corpus),
    kind: kindOf(result, expectationOf(approach, corpus)),
    records: result.records,
    problems: result.problems,
  };
  if (result.stopped !== undefined) verdict.stopped = result.stopped;
  return verdict;
}

function kindOf(result: RunResult, expected: { count: number; digest: string }): VerdictKind {
  if (result.stopped !== undefined) return 'stopped';
  if (result.records < expected.count) return 'lost';
  if (result.records > expected.count || result.digest !== expected.digest) return 'corrupted';
  return 'exact';
}

/** One cell of the report, e.g. `lost 3,128 of 589,776 (9,384 bad lines)`; counts of events say so. */
export function describeVerdict(verdict: Verdict): string {
  const n = (value: number): string => value.toLocaleString('en-US');
  const missing = verdict.expectedRecords - verdict.records;
  const of = `of ${n(verdict.expectedRecords)}${verdict.unit === 'events' ? ' events' : ''}`;
  switch (verdict.kind) {
    case 'exact':
      return 'exact';
    case 'not-applicable':
      return 'n/a (reads the whole file)';
    case 'stopped':
      return `STOPPED after ${n(verdict.records)} ${of}`;
    case 'lost':
      return `lost ${n(missing)} ${of}${verdict.problems === 0 ? ', SILENTLY' : ` (${n(verdict.problems)} bad lines)`}`;
    default:
      return `CORRUPTED (${n(verdict.records)} ${verdict.unit}, values differ)`;
  }
}
