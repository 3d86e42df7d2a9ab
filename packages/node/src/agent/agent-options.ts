/** Options of {@link runAgent}: the CLI's flags, and how the run is supervised. */

/** How the agent process is found, started and stopped; shared by {@link runAgent} and {@link createChat}. */
export interface AgentProcessOptions {
  /**
   * The executable, or candidates tried in order when one is not found (`ENOENT`). Looked up on the `PATH` of
   * {@link env} when it has one.
   *
   * @defaultValue `['cursor-agent', 'agent']`
   */
  binary?: string | readonly string[];
  /** Working directory of the process (the agent's workspace is {@link RunAgentOptions.workspace}). */
  cwd?: string;
  /** Variables set over the parent's environment; `undefined` removes one. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * The API key, passed as `CURSOR_API_KEY` in the child's environment rather than as `--api-key`, so it does not
   * show in the process list.
   */
  apiKey?: string;
  /**
   * Stops the run after this many milliseconds (outcome `timeout`). No limit by default, nor when longer than a timer
   * holds (2^31 - 1 ms, about 24.8 days; `Infinity`).
   */
  timeoutMs?: number;
  /** Aborting it stops the run (outcome `cancelled`). */
  signal?: AbortSignal;
  /**
   * After a stop signal, how long the process may take to exit before it is sent `SIGKILL`: at most 2^31 - 1 ms
   * (`Infinity` among longer ones); the default for `NaN` or a negative value.
   *
   * @defaultValue 2000
   */
  killGraceMs?: number;
  /**
   * Bytes of stderr kept (the first and the last half), so a chatty process cannot grow memory.
   *
   * @defaultValue 65536
   */
  maxCaptureBytes?: number;
}

/** Options of {@link runAgent}. Each CLI flag is passed only when set. */
export interface RunAgentOptions extends AgentProcessOptions {
  /**
   * How the prompt reaches the agent: written to its standard input (the CLI reads the prompt there when none is
   * on the command line), or as the last argument after `--`. Standard input has no size limit; an argument is
   * bounded by the system (`E2BIG` past about 128 KiB on Linux) and shows in the process list.
   *
   * @defaultValue `'stdin'`
   */
  promptVia?: 'stdin' | 'argv';
  /** `--mode <mode>`: `plan` (read-only, plans first) or `ask` (answers questions, read-only). */
  mode?: 'agent' | 'plan' | 'ask';
  /** `--workspace <path>`: the directory the agent works in. */
  workspace?: string;
  /** `--model <id>`, e.g. `sonnet-4`. */
  model?: string;
  /** `--force`: run tools without asking. */
  force?: boolean;
  /** `--approve-mcps`: approve every MCP server. */
  approveMcps?: boolean;
  /** `--trust`: trust the workspace without the prompt (a headless run cannot answer it). */
  trust?: boolean;
  /** `-H <header>`, once per entry, e.g. `X-Team: a`. */
  headers?: readonly string[];
  /** `--resume <id>`: continue a chat. See {@link AgentResult.sessionChange} for an id the agent does not know. */
  resume?: string;
  /** `--stream-partial-output`: text arrives as deltas (the normalizer removes the repeated forms). */
  streamPartialOutput?: boolean;
  /** More arguments, placed after the flags above and before the prompt, for flags not modelled here. */
  extraArgs?: readonly string[];
  /** The dialect of the output; see the normalizer's option. @defaultValue `'auto'` */
  dialect?: string;
  /**
   * Keeps every event for {@link AgentResult.events}. Without it, events are kept only when `collect()` is called
   * before the run is iterated; a run that is only iterated keeps none, so its memory does not grow with its
   * output. The result's text, tool calls and outcome are complete either way.
   *
   * @defaultValue `false`
   */
  keepEvents?: boolean;
  /**
   * Once the `result` has arrived, how long the agent may take to exit before it is stopped. cursor-agent sometimes
   * never exits after its result; a stop in this window does not change the outcome.
   *
   * @defaultValue 3000
   */
  exitGraceMs?: number;
  /**
   * Receives the agent's stdout as it arrives, byte for byte and before it is normalized, e.g. to keep the run's log
   * (a relay serving the events resumably by byte offset). A promise it returns holds reading back until it settles
   * (backpressure: the agent then waits on its pipe, as it would for any slow reader); a throw or a rejection stops
   * the run, which fails with `output-failed`.
   */
  onStdout?: (chunk: Uint8Array) => void | PromiseLike<void>;
}

/** The executables tried when {@link AgentProcessOptions.binary} is not given. */
export const DEFAULT_BINARIES: readonly string[] = ['cursor-agent', 'agent'];

/** Default of {@link AgentProcessOptions.killGraceMs}. */
export const DEFAULT_KILL_GRACE_MS = 2000;

/** Default of {@link RunAgentOptions.exitGraceMs}. */
export const DEFAULT_EXIT_GRACE_MS = 3000;
