/**
 * Material some suites read from outside the repository: real cursor-agent recordings and the founding documents,
 * kept in a `shared/` folder beside the clone (or where `CURSOR_STREAM_SHARED` points). A clone on its own does not
 * have it, so every suite that reads it asks here first and skips, its title ending in `needs` (`(needs
 * ../shared/real-corpus)`), while the repository's own recordings (`OWN_STREAMS`) keep covering the same shapes. The
 * test run's summary (tools/vitest-summary-reporter.ts) says once what was missing and which suites skipped.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const REPO_ROOT = join(import.meta.dirname, '..');
const SHARED_ROOT = process.env.CURSOR_STREAM_SHARED ?? join(REPO_ROOT, '../shared');

/** One folder of the shared material. */
export interface SharedFolder {
  /** Where it is looked for. */
  readonly path: string;
  /** Whether it is there. */
  readonly present: boolean;
  /**
   * For a suite's title: what it needs, so that a skipped suite says what is missing; the end of the run lists the
   * skipped tests by it ({@link NEEDS_PATTERN}).
   */
  readonly needs: string;
  /** The `*.ndjson` files of the folder (or of a subfolder), sorted; none when it is missing. */
  ndjsonFiles(subfolder?: string): string[];
}

/** Finds the folder a skipped test's title says it needs: the `needs` text of {@link SharedFolder}. */
export const NEEDS_PATTERN = /\(needs ([^)]+)\)/;

/** The shared folder `name`, present or not. */
export function sharedFolder(name: 'real-corpus' | 'seeds'): SharedFolder {
  const path = join(SHARED_ROOT, name);
  const present = existsSync(path);
  const shown = relative(REPO_ROOT, path);
  return {
    path,
    present,
    needs: `(needs ${shown})`,
    ndjsonFiles(subfolder = '') {
      const folder = join(path, subfolder);
      if (!existsSync(folder)) return [];
      return readdirSync(folder)
        .filter((file) => file.endsWith('.ndjson'))
        .sort()
        .map((file) => join(folder, file));
    },
  };
}

/** This repository's recordings of the official dialect. */
const OFFICIAL = join(REPO_ROOT, 'corpus/official');

/**
 * The repository's own complete, clean sessions of the real-world shapes the shared recordings hold (parallel and
 * out-of-order calls, failed, errored and rejected tools, composite `call_…`/`fc_…` ids, partial-output repeats,
 * reconnects, retries and plan queries): one session each, one record per line, a `result` whose text equals the
 * assistant text. Suites that run over the real recordings run over these too, so a clone alone still covers them.
 */
export const OWN_STREAMS: readonly string[] = [
  'docs-example-zh',
  'parallel-tools-out-of-order',
  'reconnect-retry-plan',
  'stream-partial-output',
].map((name) => join(OFFICIAL, `${name}.ndjson`));
