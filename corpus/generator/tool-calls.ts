/**
 * Arguments and results of each tool kind, in the shapes of the real recordings (see the format notes): shell with its
 * parsed command, read with its range, ls with a directory tree, edit with a diff, grep with per-file matches, glob,
 * write and MCP, each with its failure, error or rejected arm where the agent has one.
 */

import type { Random } from './random.ts';
import type { JsonObject, ToolCallModel, ToolKind } from './session-model.ts';
import { codeBlock, filePath, identifier, sentence } from './vocabulary.ts';

/** What a tool call carries, before it gets an id and times. */
export type ToolCallShape = Omit<ToolCallModel, 'callId' | 'startedMs' | 'completedMs'>;

/** What {@link buildToolCall} needs to know about the call. */
export interface ToolCallRequest {
  callId: string;
  cwd: string;
  /** Bytes of output to carry, or 0 for the usual small result. */
  largeBytes: number;
  unsuccessful: boolean;
  /** Whether the CLI writes a `description` beside `args` (recent CLIs do). */
  recentCli: boolean;
}

/** Kinds that can carry a large output, by weight. */
const LARGE_KINDS: readonly ToolKind[] = [
  'shell',
  'shell',
  'read',
  'read',
  'read',
  'edit',
  'write',
  'grep',
  'mcp',
];
/** Every kind, by how often the recordings show it. */
const ALL_KINDS: readonly ToolKind[] = [
  ...['shell', 'shell', 'shell', 'shell', 'shell', 'shell'],
  ...['read', 'read', 'read', 'read', 'read'],
  ...['ls', 'ls', 'edit', 'edit', 'grep', 'grep', 'glob', 'write', 'mcp'],
] as ToolKind[];

/** Kinds whose `args` repeat the call id as `toolCallId` in the recordings. */
const KINDS_WITH_ARGS_CALL_ID: ReadonlySet<ToolKind> = new Set(['shell', 'grep', 'ls', 'write', 'mcp']);

const SMALL_OUTPUT_BYTES: readonly [number, number] = [40, 2_000];

/** Picks a kind for a call: large outputs come only from kinds that return content. */
export function pickToolKind(random: Random, large: boolean): ToolKind {
  return random.pick(large ? LARGE_KINDS : ALL_KINDS);
}

/** Builds the arguments and result of one call of `kind`. */
export function buildToolCall(random: Random, kind: ToolKind, request: ToolCallRequest): ToolCallShape {
  const outputBytes = request.largeBytes || Math.round(random.logUniform(...SMALL_OUTPUT_BYTES));
  const shape = BUILDERS[kind](random, { ...request, outputBytes });
  if (KINDS_WITH_ARGS_CALL_ID.has(kind)) shape.args.toolCallId = request.callId;
  if (!request.recentCli) delete shape.description;
  return shape;
}

interface BuildContext extends ToolCallRequest {
  outputBytes: number;
}

type Builder = (random: Random, context: BuildContext) => ToolCallShape;

const BUILDERS: Readonly<Record<ToolKind, Builder>> = {
  shell: buildShell,
  read: buildRead,
  ls: buildLs,
  edit: buildEdit,
  grep: buildGrep,
  glob: buildGlob,
  write: buildWrite,
  mcp: buildMcp,
};

function buildShell(random: Random, context: BuildContext): ToolCallShape {
  const name = random.pick(['pnpm', 'git', 'ls', 'cat', 'node', 'rg', 'npm']);
  const argument = random.pick(['test', 'status', '-la', filePath(random), '--version', identifier(random)]);
  const command = `${name} ${argument}`;
  const args: JsonObject = {
    command,
    workingDirectory: '',
    timeout: 30000,
    simpleCommands: [name],
    hasInputRedirect: false,
    hasOutputRedirect: false,
    parsingResult: {
      parsingFailed: false,
      executableCommands: [{ name, args: [{ type: 'word', value: argument }], fullText: command }],
      hasRedirects: false,
      hasCommandSubstitution: false,
    },
    fileOutputThresholdBytes: '0',
    isBackground: false,
    skipApproval: false,
    timeoutBehavior: 'TIMEOUT_BEHAVIOR_BACKGROUND',
  };
  const description = `Run ${command}`;
  if (context.unsuccessful && random.chance(0.3)) {
    const result = { command, workingDirectory: context.cwd, reason: '', isReadonly: false };
    return { kind: 'shell', args, description, outcome: 'rejected', result, argsOnCompletion: true };
  }
  // The output is written twice, as `stdout` and as `interleavedOutput`.
  const stdout = codeBlock(random, Math.round(context.outputBytes / 2)).text;
  const failed = context.unsuccessful;
  const stderr = failed ? `${name}: ${argument}: No such file or directory\n` : '';
  const executionTime = random.int(5, 9000);
  const result: JsonObject = {
    command,
    workingDirectory: context.cwd,
    exitCode: failed ? 1 : 0,
    signal: '',
    stdout,
    stderr,
    executionTime,
    interleavedOutput: stdout + stderr,
    localExecutionTimeMs: executionTime - random.int(0, 4),
  };
  if (failed) result.aborted = false;
  const outcome = failed ? 'failure' : 'success';
  return {
    kind: 'shell',
    args,
    description,
    outcome,
    result,
    resultSiblings: { isBackground: false },
    argsOnCompletion: true,
  };
}

function buildRead(random: Random, context: BuildContext): ToolCallShape {
  const path = `${context.cwd}/${filePath(random)}`;
  if (context.unsuccessful) {
    return {
      kind: 'read',
      args: { path },
      outcome: 'error',
      result: { errorMessage: 'File not found' },
      argsOnCompletion: false,
    };
  }
  const { text, lines } = codeBlock(random, context.outputBytes);
  const result: JsonObject = {
    content: text,
    isEmpty: false,
    exceededLimit: false,
    totalLines: lines,
    fileSize: Buffer.byteLength(text),
    path,
    readRange: { startLine: 1, endLine: lines },
    relatedCursorRulePaths: [],
    relatedCursorRules: [],
  };
  return { kind: 'read', args: { path }, outcome: 'success', result, argsOnCompletion: true };
}

function buildLs(random: Random, context: BuildContext): ToolCallShape {
  const childDirectory = (name: string): JsonObject => ({
    absPath: `${context.cwd}/${name}`,
    childrenDirs: [],
    childrenFiles: Array.from({ length: random.int(1, 12) }, () => ({
      name: filePath(random).split('/').pop() ?? '',
    })),
    numFiles: random.int(1, 40),
  });
  const dirs = ['src', 'test', 'docs', 'scripts'].slice(0, random.int(1, 4));
  const directoryTreeRoot: JsonObject = {
    absPath: context.cwd,
    childrenDirs: dirs.map(childDirectory),
    childrenFiles: [{ name: 'package.json' }, { name: 'README.md' }],
    numFiles: random.int(10, 400),
  };
  return {
    kind: 'ls',
    args: { path: context.cwd, ignore: [] },
    outcome: 'success',
    result: { directoryTreeRoot },
    argsOnCompletion: true,
  };
}

function buildEdit(random: Random, context: BuildContext): ToolCallShape {
  const path = `${context.cwd}/${filePath(random)}`;
  // The new content appears in the args of both records and again in the result, so each copy gets a third.
  const { text, lines } = codeBlock(random, Math.round(context.outputBytes / 3));
  const diffString = `--- a/${path}\n+++ b/${path}\n@@ -1,0 +1,${lines} @@\n+${text.replaceAll('\n', '\n+')}`;
  const result: JsonObject = {
    path,
    linesAdded: lines,
    linesRemoved: random.int(0, lines),
    diffString,
    afterFullFileContent: text,
    message: `Wrote contents to ${path}`,
  };
  return {
    kind: 'edit',
    args: { path, streamContent: text },
    outcome: 'success',
    result,
    argsOnCompletion: true,
  };
}

function buildGrep(random: Random, context: BuildContext): ToolCallShape {
  const pattern = identifier(random);
  const files: JsonObject[] = [];
  let size = 0;
  let matched = 0;
  while (size < context.outputBytes) {
    const file = `./${filePath(random)}`;
    const matches = Array.from({ length: random.int(1, 8) }, () => {
      const content = codeBlock(random, 1).text;
      size += content.length + 80;
      return { lineNumber: random.int(1, 2000), content, contentTruncated: false, isContextLine: false };
    });
    matched += matches.length;
    files.push({ file, matches });
  }
  const args: JsonObject = { pattern, caseInsensitive: false, multiline: false, offset: 0 };
  const content = {
    matches: files,
    totalLines: matched,
    totalMatchedLines: matched,
    clientTruncated: false,
    ripgrepTruncated: false,
  };
  const result: JsonObject = {
    pattern,
    path: '',
    outputMode: 'content',
    workspaceResults: { [context.cwd]: { content } },
  };
  return { kind: 'grep', args, outcome: 'success', result, argsOnCompletion: true };
}

function buildGlob(random: Random, context: BuildContext): ToolCallShape {
  const globPattern = `**/*${identifier(random)}*`;
  const files = Array.from({ length: random.int(0, 30) }, () => `./${filePath(random)}`);
  const result: JsonObject = {
    pattern: globPattern,
    path: context.cwd,
    files,
    totalFiles: files.length,
    clientTruncated: false,
    ripgrepTruncated: false,
  };
  return {
    kind: 'glob',
    args: { globPattern, targetDirectory: context.cwd },
    outcome: 'success',
    result,
    argsOnCompletion: true,
  };
}

function buildWrite(random: Random, context: BuildContext): ToolCallShape {
  const path = `${context.cwd}/${filePath(random)}`;
  const { text, lines } = codeBlock(random, context.outputBytes);
  const result: JsonObject = { path, linesCreated: lines, fileSize: Buffer.byteLength(text) };
  return {
    kind: 'write',
    args: { path, fileText: text },
    outcome: 'success',
    result,
    argsOnCompletion: true,
  };
}

function buildMcp(random: Random, context: BuildContext): ToolCallShape {
  const provider = random.pick(['github', 'bitbucket_R1', 'linear', 'postgres']);
  const toolName = random.pick(['get_pull_request', 'search_issues', 'query', 'list_files']);
  const args: JsonObject = {
    name: `${provider}-${toolName}`,
    args: { id: random.int(1, 9999), query: sentence(random, 3) },
    providerIdentifier: provider,
    toolName,
  };
  if (context.unsuccessful) {
    const reason = `MCP tool execution rejected by user: ${provider}-${toolName} `;
    return {
      kind: 'mcp',
      args,
      outcome: 'rejected',
      result: { reason, isReadonly: false },
      argsOnCompletion: false,
    };
  }
  const text = codeBlock(random, context.outputBytes).text;
  return {
    kind: 'mcp',
    args,
    outcome: 'success',
    result: { content: [{ text: { text } }], isError: false },
    argsOnCompletion: true,
  };
}
