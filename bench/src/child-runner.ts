/**
 * Runs one row once in this fresh process and prints its {@link RunResult} as one JSON line:
 * `child-runner.ts --approach NAME --file FILE [--chunking file|odd] [--read stream|sync] [--digest]`.
 */

import { parseArgs } from 'node:util';
import { approachNamed } from './approaches/registry.ts';
import { runOnce } from './run-once.ts';

const { values } = parseArgs({
  options: {
    approach: { type: 'string' },
    file: { type: 'string' },
    chunking: { type: 'string', default: 'file' },
    read: { type: 'string', default: 'stream' },
    digest: { type: 'boolean', default: false },
  },
});
if (values.approach === undefined || values.file === undefined)
  throw new Error('--approach and --file are required');
const chunking = values.chunking === 'odd' ? 'odd' : 'file';
const result = await runOnce(approachNamed(values.approach), {
  file: values.file,
  chunking,
  reading: values.read === 'sync' ? 'sync' : 'stream',
  digest: values.digest,
});
process.stdout.write(`${JSON.stringify(result)}\n`);
