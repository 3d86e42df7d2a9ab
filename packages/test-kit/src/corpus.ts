/**
 * Where the recordings are: this repository's corpus, and the material some suites read from outside the repository
 * (real cursor-agent recordings and the founding documents), kept in a `shared/` folder beside the clone (or where
 * `CURSOR_STREAM_SHARED` points). A clone on its own does not have it, so every suite that reads it asks here first
 * and skips, naming what it needs in its title, while the repository's own recordings (`OWN_STREAMS`) keep covering
 * the same shapes. The run ends with one note naming what was skipped (see `./skip-notes`).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The repository's root. */
export const REPO_ROOT = join(import.meta.dirname, '../../..');

/** This repository's recordings, with their expected events. */
export const CORPUS_DIR = join(REPO_ROOT, 'corpus');

/** The recording most tests replay: one official-dialect session with two tool calls and a result. */
export const DOCS_EXAMPLE = join(CORPUS_DIR, 'official/docs-example-zh.ndjson');

/** The session id of {@link DOCS_EXAMPLE}. */
export const DOCS_EXAMPLE_SESSION = 'c6b62c6f-7ead-4fd6-9922-e952131177ff';

/**
 * The logs of other agents in `corpus/foreign/` that are theirs from the first line, each with the words that name
 * its format in the sentence every command says of it (`this looks like a Claude Code stream-json log, ...`).
 */
export const FOREIGN_LOGS: readonly (readonly [file: string, format: string])[] = [
  ['claude-code-stream-json.ndjson', 'a Claude Code stream-json'],
  ['claude-code-session.jsonl', 'a Claude Code session'],
  ['codex-exec-json.ndjson', 'a Codex exec --json'],
  ['codex-session-rollout.jsonl', 'a Codex session'],
  ['gemini-cli-stream-json.ndjson', 'a Gemini CLI stream-json'],
  ['opencode-run-json.ndjson', 'an opencode run --format json'],
  ['copilot-cli-json.ndjson', 'a GitHub Copilot CLI JSON'],
  ['qwen-code-stream-json.ndjson', 'a Qwen Code stream-json'],
  ['amp-stream-json.ndjson', 'an Amp stream-json'],
  ['kimi-wire.ndjson', 'a Kimi CLI wire'],
  ['letta-code-stream-json.ndjson', 'a Letta Code stream-json'],
  ['grok-chat-history.jsonl', 'a Grok CLI chat history'],
];

const SHARED_ROOT = process.env.CURSOR_STREAM_SHARED ?? join(REPO_ROOT, '../shared');

/** The folders of the shared material. */
export const SHARED_FOLDER_NAMES = ['real-corpus', 'seeds'] as const;

/** A name of {@link SHARED_FOLDER_NAMES}. */
export type SharedFolderName = (typeof SHARED_FOLDER_NAMES)[number];

/** One folder of the shared material. */
export interface SharedFolder {
  /** Where it is looked for. */
  readonly path: string;
  /** Whether it is there. */
  readonly present: boolean;
  /** Where it is looked for, from the repository's root, as the notes name it. */
  readonly shown: string;
  /** For a suite's title: what it needs, so that a skipped suite says what is missing. */
  readonly needs: string;
  /** The `*.ndjson` files of the folder (or of a subfolder), sorted; none when it is missing. */
  ndjsonFiles(subfolder?: string): string[];
}

/** The shared folder `name`. */
export function sharedFolder(name: SharedFolderName): SharedFolder {
  const path = join(SHARED_ROOT, name);
  const shown = relative(REPO_ROOT, path);
  return {
    path,
    present: existsSync(path),
    shown,
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

/** The real cursor-agent recordings, read in place (never copied). */
export const REAL_CORPUS = sharedFolder('real-corpus');

/** The founding documents' examples. */
export const SEEDS = sharedFolder('seeds');

/** This repository's recordings of the official dialect. */
const OFFICIAL = join(CORPUS_DIR, 'official');

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
