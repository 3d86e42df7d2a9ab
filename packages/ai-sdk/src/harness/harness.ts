/**
 * `createCursorHarness`: cursor-agent as an AI SDK harness (`HarnessV1`). Each turn is one
 * `cursor-agent --print --output-format stream-json` run, started through the sandbox session's own process API, so
 * the same harness works in a local sandbox and a remote one; its output goes through this project's normalizer,
 * and the turn reports the usage the CLI's `result` gives, which ACP does not carry.
 */

import type {
  HarnessV1,
  HarnessV1CallWarning,
  HarnessV1ContinueTurnState,
  HarnessV1Prompt,
  HarnessV1PromptControl,
  HarnessV1PromptTurnOptions,
  HarnessV1ResumeSessionState,
  HarnessV1Session,
  HarnessV1StartOptions,
} from '@ai-sdk/harness';
import {
  type AgentRunError,
  agentArgs,
  chatIdOf,
  commandOutcome,
  DEFAULT_CAPTURE_BYTES,
  DEFAULT_EXIT_GRACE_MS,
  describeThrown,
  isChatId,
  promptProblem,
} from '@cursor-stream/node/agent-protocol';
import { cursorBuiltinTools } from './builtin-tools.ts';
import type { DescribedObjectSchema } from './described-object.ts';
import { CURSOR_HARNESS_ID } from './harness-id.ts';
import { type HarnessPackage, loadHarnessPackage } from './harness-package.ts';
import { processExitOf, type SandboxSession, startTurn, type Turn } from './turn.ts';

/** Options of {@link createCursorHarness}; those `runAgent` has mean what they mean there. */
export interface CursorHarnessOptions {
  /** The agent's command, found on the sandbox's `PATH` unless it is a path. @defaultValue `'cursor-agent'` */
  binary?: string;
  /** `--model <id>` of every turn whose `HarnessAgent` call names no model. */
  model?: string;
  /** `--force`: run tools without asking (a headless run otherwise rejects what its permissions do not allow). */
  force?: boolean;
  /** `--mode <mode>`: `plan` (read-only, plans first) or `ask` (answers questions, read-only). */
  mode?: 'agent' | 'plan' | 'ask';
  /**
   * `--trust`: trust the workspace without the prompt a headless run cannot answer. The workspace is the session's
   * working directory, which `HarnessAgent` makes for the session.
   *
   * @defaultValue `true`
   */
  trust?: boolean;
  /** `--approve-mcps`: approve every MCP server. */
  approveMcps?: boolean;
  /**
   * `--stream-partial-output`: text as it is written rather than a message at a time (the normalizer removes the
   * repeated forms this flag brings).
   *
   * @defaultValue `true`
   */
  streamPartialOutput?: boolean;
  /** `-H <header>` on every turn, e.g. `X-Team: a`; a session's `headers` are added. */
  headers?: readonly string[];
  /** More arguments, after the flags above, for flags not modelled here. */
  args?: readonly string[];
  /** Variables set in the agent's environment, over the sandbox's. */
  env?: Readonly<Record<string, string>>;
  /** The API key, passed as `CURSOR_API_KEY` in the agent's environment, never on its command line. */
  apiKey?: string;
  /**
   * How the prompt reaches the agent: on its standard input, from a file written through the sandbox's file API
   * into a private temporary folder and removed as the agent starts (any size; the sandbox's process API has no
   * standard input of its own), or as the last argument (bounded by the system, and seen in the process list).
   *
   * @defaultValue `'stdin'`
   */
  promptVia?: 'stdin' | 'argv';
  /** How long the agent may take to exit after its result before it is stopped. @defaultValue 3000 */
  exitGraceMs?: number;
  /** Bytes of the agent's stderr kept for its failure's sentence. @defaultValue 65536 */
  maxCaptureBytes?: number;
}

/** The harness's lifecycle data (`data` of the states `stop()`, `detach()` and `suspendTurn()` give). */
export interface CursorHarnessLifecycleData {
  /** The chat every turn resumes (`--resume <chatId>`). */
  chatId: string;
}

/** The harness {@link createCursorHarness} returns. */
export type CursorHarness = HarnessV1<typeof cursorBuiltinTools>;

/** What a turn continued after a suspension is asked: the chat holds what the stopped turn had done. */
const CONTINUE_PROMPT = 'Continue.';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The chat id a lifecycle state's `data` holds, or `undefined`. */
function chatIdIn(data: unknown): string | undefined {
  return isObject(data) && typeof data.chatId === 'string' && isChatId(data.chatId) ? data.chatId : undefined;
}

const LIFECYCLE_JSON_SCHEMA = {
  type: 'object',
  properties: { chatId: { type: 'string', pattern: '^[\\w.:-]+$' } },
  required: ['chatId'],
};

/** `{ chatId }`, as a Standard Schema: `HarnessAgent` checks the states it is given and gives back by it. */
const lifecycleStateSchema: DescribedObjectSchema<CursorHarnessLifecycleData> = {
  '~standard': {
    version: 1,
    vendor: 'cursor-stream',
    validate(value) {
      const chatId = chatIdIn(value);
      return chatId === undefined
        ? { issues: [{ message: 'Expected { chatId } holding the id of a cursor-agent chat.' }] }
        : { value: { chatId } };
    },
    jsonSchema: { input: () => LIFECYCLE_JSON_SCHEMA, output: () => LIFECYCLE_JSON_SCHEMA },
  },
};

/** The text of a prompt: its text parts; what else it holds is named in a warning, since print mode takes text. */
function promptText(prompt: HarnessV1Prompt, warnings: HarnessV1CallWarning[]): string {
  if (typeof prompt === 'string') return prompt;
  if (typeof prompt.content === 'string') return prompt.content;
  const texts: string[] = [];
  const others = new Set<string>();
  for (const part of prompt.content) {
    if (part.type === 'text') texts.push(part.text);
    else others.add(part.type);
  }
  if (others.size > 0) {
    const kinds = [...others].join(', ');
    warnings.push({
      type: 'other',
      message: `The prompt's ${kinds} parts were not sent: cursor-agent --print takes text.`,
    });
  }
  return texts.join('\n\n');
}

/** `create-chat` in the sandbox: the chat id, or a thrown `HarnessError` with the command's code and sentence. */
async function createChatIn(
  sandbox: SandboxSession,
  harness: HarnessPackage,
  binary: string,
  start: HarnessV1StartOptions,
  env: Readonly<Record<string, string>>,
): Promise<string> {
  let result: { exitCode: number; stdout: string; stderr: string };
  try {
    result = await sandbox.run({
      command: `${harness.shellQuote(binary)} create-chat`,
      workingDirectory: start.sessionWorkDir,
      env: { ...env },
      ...(start.abortSignal === undefined ? {} : { abortSignal: start.abortSignal }),
    });
  } catch (thrown) {
    start.abortSignal?.throwIfAborted();
    const message = `Could not start ${binary} create-chat in the sandbox: ${describeThrown(thrown)}`;
    throw harness.agentError({ code: 'spawn-failed', message });
  }
  const exit = processExitOf({
    binary,
    exitCode: result.exitCode,
    stderr: { text: result.stderr, totalBytes: result.stderr.length, truncated: false },
    wroteStdout: result.stdout.length > 0,
  });
  const outcome = commandOutcome(
    exit,
    result.stdout,
    (lines) => chatIdOf(lines) !== undefined,
    'create-chat printed no chat id',
  );
  if (!outcome.ok) throw harness.agentError(outcome.error);
  return chatIdOf(outcome.lines) as string;
}

/**
 * Creates the harness. Pass it to `HarnessAgent` from `@ai-sdk/harness/agent` (an optional peer dependency, loaded
 * when a session starts), with a sandbox session whose `PATH` has the agent.
 *
 * - `doStart` creates a chat (`cursor-agent create-chat`, in the session's working directory) or resumes the one
 *   the lifecycle state names (`{ chatId }`); every turn runs `--resume <chatId>`, and follows the chat the agent
 *   reports if it started another.
 * - A turn's parts: see `createTurnParts`; its `finish` has `totalUsage` from the CLI's `result.usage`.
 * - Aborting a turn kills its process; `stop()` and `destroy()` end a running turn, `suspendTurn()` too, and a
 *   continued turn asks the chat to go on (`Continue.`).
 * - Not in print mode, so refused with `HarnessCapabilityUnsupportedError`: host-side tools (expose them through an
 *   MCP server instead), structured output, builtin tool filtering, approvals (`permissionMode` other than
 *   `allow-all`), manual compaction, and tool results or approvals sent back to the agent.
 *
 * @example
 * ```ts
 * const agent = new HarnessAgent({ harness: createCursorHarness({ force: true }) });
 * const session = await agent.createSession({ sandboxSession });
 * const result = await agent.stream({ session, prompt: 'Summarize README.md' });
 * for await (const text of result.textStream) process.stdout.write(text);
 * console.log(await result.totalUsage);
 * ```
 */
export function createCursorHarness(options: CursorHarnessOptions = {}): CursorHarness {
  const binary = options.binary ?? 'cursor-agent';
  const env: Readonly<Record<string, string>> = {
    ...options.env,
    ...(options.apiKey === undefined ? {} : { CURSOR_API_KEY: options.apiKey }),
  };
  const promptVia = options.promptVia ?? 'stdin';

  async function doStart(start: HarnessV1StartOptions): Promise<HarnessV1Session> {
    const harness = await loadHarnessPackage();
    if (start.builtinToolFiltering !== undefined) {
      throw harness.unsupported(
        'cursor-agent --print cannot hide its builtin tools, so activeTools and inactiveTools cannot be honoured.',
      );
    }
    if (start.permissionMode !== undefined && start.permissionMode !== 'allow-all') {
      throw harness.unsupported(
        "cursor-agent --print asks no one before a tool runs (--force and the CLI's own permissions decide), so permissionMode must be 'allow-all'.",
      );
    }
    const sandbox: SandboxSession =
      'restricted' in start.sandboxSession ? start.sandboxSession.restricted() : start.sandboxSession;
    const saved = start.continueFrom ?? start.resumeFrom?.continueFrom ?? start.resumeFrom;
    let chatId = saved === undefined ? undefined : chatIdIn(saved.data);
    if (saved !== undefined && chatId === undefined) {
      throw harness.harnessError('The lifecycle state names no cursor-agent chat to resume ({ chatId }).');
    }
    chatId ??= await createChatIn(sandbox, harness, binary, start, env);
    const headers = [
      ...(options.headers ?? []),
      ...Object.entries(start.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    ];
    return openSession({ start, sandbox, harness, chatId, headers });
  }

  function openSession(session: {
    start: HarnessV1StartOptions;
    sandbox: SandboxSession;
    harness: HarnessPackage;
    chatId: string;
    headers: string[];
  }): HarnessV1Session {
    const { start, sandbox, harness } = session;
    const quote = harness.shellQuote;
    let chatId = session.chatId;
    let active: Turn | undefined;
    let sentInstructions: string | undefined;
    let promptDir: Promise<string> | undefined;
    let promptCount = 0;

    function state<T extends 'resume-session' | 'continue-turn'>(type: T) {
      const data: CursorHarnessLifecycleData = { chatId };
      return {
        type,
        harnessId: CURSOR_HARNESS_ID,
        specificationVersion: 'harness-v1' as const,
        data: { ...data },
      };
    }

    /** A private folder for prompt files in the sandbox (`mktemp -d`), made once per session. */
    function makePromptDir(): Promise<string> {
      // The sandbox's shell expands `$TMPDIR`, so the folder is where the sandbox keeps its temporary files.
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template.
      const command = 'mktemp -d "${TMPDIR:-/tmp}/cursor-stream-prompt.XXXXXX"';
      promptDir ??= Promise.resolve(sandbox.run({ command, env: { ...env } })).then(
        ({ exitCode, stdout, stderr }) => {
          const dir = stdout.trim();
          if (exitCode !== 0 || !dir.startsWith('/')) {
            promptDir = undefined;
            throw new Error(`mktemp -d failed in the sandbox (exit code ${exitCode}): ${stderr.trim()}`);
          }
          return dir;
        },
      );
      return promptDir;
    }

    async function removePromptDir(): Promise<void> {
      const dir = await promptDir?.catch(() => undefined);
      promptDir = undefined;
      if (dir === undefined) return;
      await Promise.resolve(sandbox.run({ command: `rm -rf -- ${quote(dir)}`, env: { ...env } })).catch(
        () => {},
      );
    }

    /** The command line of a turn: the prompt on standard input from a file removed as the agent starts, or argv. */
    function commandOf(args: readonly string[], text: string): () => Promise<string> {
      const agent = [binary, ...args].map(quote).join(' ');
      if (promptVia === 'argv') return async () => agent;
      return async () => {
        const file = `${await makePromptDir()}/prompt-${++promptCount}.txt`;
        try {
          await sandbox.writeTextFile({ path: file, content: text });
        } catch (thrown) {
          throw new Error(`the prompt could not be written to ${file}: ${describeThrown(thrown)}`);
        }
        // The shell opens the file as its standard input and removes it before the agent starts, so no prompt is
        // left behind whatever becomes of the run.
        return `exec <${quote(file)} && rm -f -- ${quote(file)} && exec ${agent}`;
      };
    }

    function beginTurn(
      prompt: string,
      settings: Pick<
        HarnessV1PromptTurnOptions,
        'model' | 'skills' | 'instructions' | 'tools' | 'responseFormat' | 'abortSignal' | 'emit'
      >,
      warnings: HarnessV1CallWarning[],
    ): HarnessV1PromptControl {
      if (active !== undefined) {
        throw harness.harnessError(
          'A turn is still running in this session; start the next one after it ends.',
        );
      }
      if (settings.responseFormat?.type === 'json') {
        throw harness.unsupported('cursor-agent --print has no structured output: use a text response.');
      }
      if (settings.tools.length > 0) {
        const names = settings.tools.map((tool) => tool.name).join(', ');
        throw harness.unsupported(
          `Host-side tools (${names}) cannot run: cursor-agent --print cannot call back into the host. Expose them to the agent through an MCP server (.cursor/mcp.json) instead.`,
        );
      }
      if (settings.skills.length > 0) {
        warnings.push({
          type: 'unsupported-setting',
          setting: 'skills',
          details: 'cursor-agent --print takes no skills; they were not sent.',
        });
      }
      const instructions = settings.instructions?.trim() ? settings.instructions : undefined;
      // The chat keeps what it was told, so instructions are sent with the first turn and again when they change.
      const text =
        instructions !== undefined && instructions !== sentInstructions
          ? `${instructions}\n\n${prompt}`
          : prompt;
      sentInstructions = instructions ?? sentInstructions;
      const model = settings.model ?? options.model;
      const args = agentArgs(text, {
        promptVia,
        trust: options.trust ?? true,
        streamPartialOutput: options.streamPartialOutput ?? true,
        headers: session.headers,
        resume: chatId,
        ...(model === undefined ? {} : { model }),
        ...(options.force === undefined ? {} : { force: options.force }),
        ...(options.mode === undefined ? {} : { mode: options.mode }),
        ...(options.approveMcps === undefined ? {} : { approveMcps: options.approveMcps }),
        ...(options.args === undefined ? {} : { extraArgs: options.args }),
      });
      const problem = promptProblem(text, promptVia);
      const refusal: AgentRunError | undefined =
        problem === undefined ? undefined : { code: 'invalid-prompt', message: problem };
      const turn = startTurn({
        sandbox,
        harness,
        binary,
        command: commandOf(args, text),
        workingDirectory: start.sessionWorkDir,
        env,
        exitGraceMs: options.exitGraceMs ?? DEFAULT_EXIT_GRACE_MS,
        maxCaptureBytes: options.maxCaptureBytes ?? DEFAULT_CAPTURE_BYTES,
        parts: { harnessId: CURSOR_HARNESS_ID, model, resume: chatId, warnings },
        abortSignal: settings.abortSignal,
        emit: settings.emit,
        onChatId: (reported) => {
          chatId = reported;
        },
        refusal,
      });
      active = turn;
      void turn.done.then(
        () => {
          if (active === turn) active = undefined;
        },
        () => {
          if (active === turn) active = undefined;
        },
      );
      return {
        submitToolResult: async () => {
          throw harness.unsupported(
            'cursor-agent --print runs its own tools and takes no tool results back.',
          );
        },
        submitToolApproval: async () => {
          throw harness.unsupported('cursor-agent --print answers its own approvals and takes none back.');
        },
        done: turn.done,
      };
    }

    async function end(reason: string): Promise<void> {
      await active?.stop({ reason: harness.harnessError(reason) });
      await removePromptDir();
    }

    return {
      sessionId: start.sessionId,
      isResume: start.resumeFrom !== undefined || start.continueFrom !== undefined,
      async doPromptTurn(turn) {
        const warnings: HarnessV1CallWarning[] = [];
        return beginTurn(promptText(turn.prompt, warnings), turn, warnings);
      },
      async doContinueTurn(turn) {
        return beginTurn(CONTINUE_PROMPT, turn, []);
      },
      async doCompact() {
        throw harness.unsupported(
          'cursor-agent --print has no manual compaction; the agent compacts by itself.',
        );
      },
      async doSuspendTurn(): Promise<HarnessV1ContinueTurnState> {
        await active?.stop({ suspend: true });
        return state('continue-turn');
      },
      async doDetach(): Promise<HarnessV1ResumeSessionState> {
        return state('resume-session');
      },
      async doStop(): Promise<HarnessV1ResumeSessionState> {
        await end('The session was stopped during the turn.');
        return state('resume-session');
      },
      async doDestroy() {
        await end('The session was destroyed during the turn.');
      },
    };
  }

  return {
    specificationVersion: 'harness-v1',
    harnessId: CURSOR_HARNESS_ID,
    builtinTools: cursorBuiltinTools,
    supportsBuiltinToolApprovals: false,
    supportsBuiltinToolFiltering: false,
    lifecycleStateSchema,
    doStart,
  };
}
