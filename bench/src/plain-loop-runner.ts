/**
 * Runs one plain loop over a file, or over the files of a folder one after another, in this fresh process, and
 * prints `{"records":N,"problems":M}` as one JSON line: `plain-loop-runner.ts --loop NAME --file PATH`.
 *
 * The command rows time the loops as whole processes against the CLI, so a loop's process holds the loop and no
 * more, as the loop a user writes does: no libraries to load, no promise or generator per file, one read buffer for
 * every file. The benchmark's child runner, which loads every library it compares, starts some 100 ms later and
 * spends some 20 µs more on each file.
 */

import { closeSync, openSync, readSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isPlainLoopName, PLAIN_LOOPS } from './approaches/plain-loops.ts';
import { parseLineInto } from './approaches/stream-helpers.ts';
import { filesOf, READ_CHUNK_BYTES } from './inputs.ts';

const { values } = parseArgs({ options: { loop: { type: 'string' }, file: { type: 'string' } } });
const { loop: name, file: path } = values;
if (name === undefined || path === undefined || !isPlainLoopName(name))
  throw new Error('--loop reference-loop|buffer-indexof and --file are required');
const loopOf = PLAIN_LOOPS[name];

let records = 0;
let problems = 0;
const counts = {
  value(): void {
    records++;
  },
  problem(): void {
    problems++;
  },
};
const parseLine = (line: string): void => parseLineInto(line, counts);

const files = filesOf(path);
const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
for (const file of files) {
  const loop = loopOf(parseLine);
  const fd = openSync(file, 'r');
  try {
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer))
      loop.chunk(buffer.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  loop.end();
}
process.stdout.write(`${JSON.stringify({ records, problems })}\n`);
