import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codePointCount, truncateMiddle } from '@cursor-stream/core/text';
import { toolHeadline, toolLabel } from '@cursor-stream/core/tools';
import { fc, test as propTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { normalizeText, ofType } from './support.ts';

/** Arguments of each kind of the CLI's tool-call protocol (2026.10, shaped as its protobuf messages), and the headline. */
const KIND_HEADLINES: Readonly<Record<string, readonly [Record<string, unknown>, string]>> = {
  shellToolCall: [{ command: 'npm test', workingDirectory: '/w' }, 'npm test'],
  deleteToolCall: [{ path: 'old.txt', toolCallId: 't' }, 'old.txt'],
  globToolCall: [{ globPattern: '**/*.md', targetDirectory: 'docs' }, '"**/*.md" in docs'],
  grepToolCall: [{ pattern: 'TODO', path: 'src' }, '"TODO" in src'],
  readToolCall: [{ path: 'a.ts', offset: 5, limit: 10 }, 'a.ts lines 5-14'],
  updateTodosToolCall: [{ todos: [{}, {}, {}], merge: false }, '3 todos'],
  readTodosToolCall: [{ statusFilter: [], idFilter: ['t1', 't2'] }, 't1, t2'],
  editToolCall: [{ path: 'src/main.ts', streamContent: 'x' }, 'src/main.ts'],
  lsToolCall: [{ path: 'src', ignore: [] }, 'src'],
  readLintsToolCall: [{ paths: ['a.ts', 'b.ts'] }, 'a.ts, b.ts'],
  mcpToolCall: [{ name: 'linear-create_issue', toolName: 'create_issue' }, 'linear-create_issue'],
  semSearchToolCall: [{ query: 'where is auth', targetDirectories: ['src'] }, 'where is auth in src'],
  createPlanToolCall: [{ plan: '# Steps\n1. a', name: 'Add a file', overview: 'o' }, 'Add a file'],
  webSearchToolCall: [{ searchTerm: 'node lts' }, 'node lts'],
  taskToolCall: [{ description: 'Explore the tests', prompt: 'p' }, 'Explore the tests'],
  listMcpResourcesToolCall: [{ server: 'docs' }, 'docs'],
  readMcpResourceToolCall: [{ server: 'docs', uri: 'doc://a' }, 'doc://a (docs)'],
  applyAgentDiffToolCall: [{ agentId: 'bc-1' }, 'bc-1'],
  askQuestionToolCall: [{ title: 'Which file?', questions: [{}] }, 'Which file?'],
  fetchToolCall: [{ url: 'https://example.com' }, 'https://example.com'],
  switchModeToolCall: [{ targetModeId: 'plan', explanation: 'e' }, 'plan'],
  generateImageToolCall: [{ description: 'a logo', filePath: 'logo.png' }, 'logo.png'],
  recordScreenToolCall: [{ mode: { start: {} } }, 'start'],
  computerUseToolCall: [{ actions: [{}, {}] }, '2 actions'],
  writeShellStdinToolCall: [{ shellId: 3, chars: 'y' }, 'shell 3: y'],
  reflectToolCall: [{ nextSteps: 'Run the tests again' }, 'Run the tests again'],
  setupVmEnvironmentToolCall: [{ installCommand: 'pnpm install', startCommand: 's' }, 'pnpm install'],
  truncatedToolCall: [{}, 'a call cut off on its way'],
  startGrindExecutionToolCall: [{ explanation: 'go' }, 'go'],
  startGrindPlanningToolCall: [{ explanation: 'plan it' }, 'plan it'],
  webFetchToolCall: [{ url: 'https://example.org' }, 'https://example.org'],
  reportBugfixResultsToolCall: [{ summary: 'fixed 2', results: [] }, 'fixed 2'],
  aiAttributionToolCall: [{ filePaths: ['a.ts'], commitHashes: [] }, 'a.ts'],
  prManagementToolCall: [{ createPr: { title: 't' } }, 'createPr'],
  mcpAuthToolCall: [{ serverIdentifier: 'linear' }, 'linear'],
  awaitToolCall: [{ taskId: 'task-1' }, 'task-1'],
  blameByFilePathToolCall: [{ filePath: 'a.ts', startLine: 3, endLine: 9 }, 'a.ts lines 3-9'],
  getMcpToolsToolCall: [{ server: 'cursor', toolName: 'Delete' }, 'cursor: Delete'],
  reportBugToolCall: [{ title: 'Off by one', file: 'a.ts' }, 'Off by one (a.ts)'],
  setActiveBranchToolCall: [{ path: '/w', branchName: 'fix' }, 'fix (/w)'],
  communicateUpdateToolCall: [{ currentStep: 'Reading the code' }, 'Reading the code'],
  sendFinalSummaryToolCall: [{ finalSummary: 'All done' }, 'All done'],
  updatePrCodeTourToolCall: [{ feedback: 'f', heading: 'The parser' }, 'The parser'],
  replaceEnvToolCall: [{ mode: { replace: {} }, config: {} }, 'replace'],
  editPrLabelsToolCall: [
    { prUrl: 'https://example.com/pr/1', addLabels: ['bug'] },
    'https://example.com/pr/1',
  ],
  recordCiInvestigationFindingsToolCall: [{ findings: [{}] }, '1 finding'],
  sendMessageToolCall: [{ text: { text: 'hi' } }, 'text'],
  fetchCloudAgentDataToolCall: [{ bcIds: ['bc-1'], sources: [] }, 'bc-1'],
  sendToUserToolCall: [{ message: 'Done' }, 'Done'],
  piReadToolCall: [{ path: 'a.ts', offset: 1, limit: 2 }, 'a.ts lines 1-2'],
  piBashToolCall: [{ command: 'ls' }, 'ls'],
  piEditToolCall: [{ path: 'a.ts', edits: [] }, 'a.ts'],
  piWriteToolCall: [{ path: 'b.ts', content: 'x' }, 'b.ts'],
  piGrepToolCall: [{ pattern: 'foo', path: 'src' }, '"foo" in src'],
  piFindToolCall: [{ pattern: '*.ts' }, '"*.ts"'],
  piLsToolCall: [{ path: 'lib' }, 'lib'],
  connectScmToolCall: [{ github: {} }, 'github'],
  searchConversationsToolCall: [{ query: 'the parser bug' }, 'the parser bug'],
  createGoalToolCall: [{ objective: 'Ship it' }, 'Ship it'],
  updateGoalToolCall: [{ status: { done: {} } }, 'done'],
  adoptToolCall: [{ sourceAgentId: 'bc-2' }, 'bc-2'],
  getAgentStatusToolCall: [{ agentIds: ['bc-1', 'bc-2'] }, 'bc-1, bc-2'],
  sendToAgentToolCall: [
    { agentId: 'bc-3', message: 'rebase', title: 'Rebase please' },
    'Rebase please (bc-3)',
  ],
  readAgentTranscriptToolCall: [{ agentId: 'bc-4', maxTurns: 3 }, 'bc-4'],
  createAgentToolCall: [{ prompt: 'Fix the build', name: 'builder' }, 'builder'],
  stopAgentToolCall: [{ agentId: 'bc-5' }, 'bc-5'],
  getPrCodeTourToolCall: [{ revisionId: 'r1' }, 'r1'],
  writeCanvasToolCall: [{ contents: 'x', title: 'Notes' }, 'Notes'],
  readCanvasToolCall: [{ canvasId: 'c1' }, 'c1'],
};

/** The tool kinds the official schema names (`tool_call.<kind>`). */
function schemaKinds(): string[] {
  const schema = JSON.parse(
    readFileSync(join(import.meta.dirname, '../../../schemas/official.schema.json'), 'utf8'),
  ) as { $defs: { toolCall: { properties: Record<string, unknown> } } };
  // `writeToolCall` is an older build's name for what `editToolCall` does now; it keeps the headline it had.
  return Object.keys(schema.$defs.toolCall.properties).filter(
    (key) => key.endsWith('ToolCall') && key !== 'writeToolCall',
  );
}

/** The canonical tool name and the input of a started call of `kind`, as the normalizer reads them. */
function startedCall(kind: string, args: Record<string, unknown>): { toolName: string; input: unknown } {
  const record = { type: 'tool_call', subtype: 'started', call_id: 'c1', tool_call: { [kind]: { args } } };
  const [call] = ofType(normalizeText(`${JSON.stringify(record)}\n`), 'tool-call');
  if (call === undefined) throw new Error(`no tool-call for ${kind}`);
  return call;
}

describe('a headline for every tool kind', () => {
  test('the schema names the 69 kinds of the 2026.10 protocol, and each has a headline here', () => {
    const kinds = schemaKinds();
    expect(kinds).toHaveLength(69);
    expect(kinds.filter((kind) => !(kind in KIND_HEADLINES))).toEqual([]);
  });

  test.each(Object.entries(KIND_HEADLINES))('%s', (kind, [args, headline]) => {
    const { toolName, input } = startedCall(kind, args);
    expect(toolHeadline(toolName, input)).toBe(headline);
  });

  test('MCP tool discovery says which server, and the tool or the pattern looked for', () => {
    expect(toolHeadline('getMcpTools', { server: 'cursor', pattern: 'delete|Delete', toolCallId: 't' })).toBe(
      '"delete|Delete" in cursor',
    );
    expect(toolLabel('getMcpTools', { server: 'cursor', toolName: 'Delete' }, 80)).toBe(
      'getMcpTools cursor: Delete',
    );
  });
});

describe('a long path keeps its end', () => {
  const deep = `/home/dev/${'very-long-folder-name/'.repeat(12)}src/main.ts`;

  test('the file name and the range stay; the middle goes', () => {
    const headline = toolHeadline('read', { path: deep, offset: 10, limit: 50 }, 60);
    expect(codePointCount(headline)).toBe(60);
    expect(headline.startsWith('/home/dev/')).toBe(true);
    expect(headline.endsWith('/src/main.ts lines 10-59')).toBe(true);
    expect(headline).toContain('…');
    expect(toolLabel('edit', { path: deep }, 40).endsWith('/main.ts')).toBe(true);
    expect(toolHeadline('grep', { pattern: 'x', path: deep }, 50).endsWith('/src/main.ts')).toBe(true);
  });

  const segment = fc.stringMatching(/^[a-zA-Z0-9._ -]{1,12}$/);
  const pathText = fc
    .tuple(fc.constantFrom('/', '\\'), fc.array(segment, { minLength: 1, maxLength: 30 }))
    .map(([separator, segments]) => `${separator}${segments.join(separator)}`);

  propTest.prop([pathText, fc.integer({ min: 1, max: 80 })])(
    'is at most its length, the text itself when it fits, else its start and its end around one …',
    (text, max) => {
      const cut = truncateMiddle(text, max);
      expect(codePointCount(cut)).toBeLessThanOrEqual(max);
      if (codePointCount(text) <= max) {
        expect(cut).toBe(text);
        return;
      }
      const [head, tail, ...rest] = cut.split('…');
      expect(rest).toEqual([]);
      expect(text.startsWith(head ?? '')).toBe(true);
      expect(text.endsWith(tail ?? '')).toBe(true);
      const name = text.slice(Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\')));
      if (name.length < max) expect(cut.endsWith(name)).toBe(true);
    },
  );
});
