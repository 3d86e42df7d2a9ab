/**
 * Loads every generated validator in plain Node, with no test runner in between: test runners supply `require`, so
 * only a plain ES module load shows a `require` left in the generated code. Exits non-zero on any failure.
 *
 * Each sample reaches a `minLength` check, which runs ajv's `ucs2length` runtime helper.
 */

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const GENERATED_DIR = join(import.meta.dirname, '../src/generated');

/** A valid value per schema, by the generated file's stem without `-strict`. */
const VALID_SAMPLES = {
  official: {
    type: 'tool_call',
    subtype: 'started',
    call_id: 'call_1\nfc_1',
    tool_call: { shellToolCall: { args: { command: 'ls' } } },
  },
  'python-wrapper': { type: 'tool-call-started', tool_name: 'Shell', tool_call_id: 'call_1', parameters: {} },
  'payload-envelope': { type: 'tool_call', subtype: 'started', payload: { toolCall: { id: 'shell-1' } } },
  acp: {
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId: 's1', update: { sessionUpdate: 'plan', entries: [] } },
  },
  'cursor-sdk': { type: 'status', agent_id: 'agent-1', run_id: 'run-1', status: 'RUNNING' },
  'canonical-event': {
    type: 'tool-call',
    toolCallId: 'call_1',
    toolName: 'shell',
    providerToolName: 'shellToolCall',
    input: {},
  },
};

/** The field each sample is made invalid by emptying: its `type`, or what takes its place (ACP's `method`). */
const EMPTIED_FIELDS = { acp: 'method' };

const files = readdirSync(GENERATED_DIR).filter((file) => file.endsWith('.js'));
const failures = [];
for (const file of files) {
  const stem = file.replace(/(-strict)?\.js$/, '');
  const sample = VALID_SAMPLES[stem];
  const validate = await loadValidator(file);
  if (typeof validate !== 'function') failures.push(`${file}: ${validate}`);
  else if (sample === undefined) failures.push(`${file}: no sample`);
  else if (!validate(sample))
    failures.push(`${file}: rejects its sample: ${JSON.stringify(validate.errors)}`);
  else if (validate({ ...sample, [EMPTIED_FIELDS[stem] ?? 'type']: '' }) || !Array.isArray(validate.errors)) {
    failures.push(`${file}: accepts an empty ${EMPTIED_FIELDS[stem] ?? 'type'}`);
  }
}
/** The module's `validate`, or why it could not be loaded. */
async function loadValidator(file) {
  try {
    return (await import(pathToFileURL(join(GENERATED_DIR, file)).href)).validate;
  } catch (error) {
    return `does not load: ${error}`;
  }
}

if (files.length === 0) failures.push('no generated validators: run `pnpm run gen`');
if (failures.length > 0) {
  process.stderr.write(`${failures.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`${files.length} generated validators load and run in plain Node\n`);
