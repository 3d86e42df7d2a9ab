/**
 * Tokenizes an NDJSON file and prints one line per record or problem: a small demonstration of the tokenizer.
 * Usage: tsx --conditions=@cursor-stream/source packages/ndjson/examples/print-records.ts FILE
 */
import { createReadStream } from 'node:fs';
import { isNdjsonProblem, iterateNdjson } from '@cursor-stream/ndjson';

const file = process.argv[2];
if (file === undefined) {
  process.stderr.write('usage: print-records FILE\n');
  process.exit(2);
}
for await (const item of iterateNdjson(createReadStream(file))) {
  const where = `${file}:${item.line} @${item.offset}+${item.length}`;
  if (isNdjsonProblem(item)) {
    process.stdout.write(`${where} ${item.code}: ${item.message}\n`);
  } else {
    const value = item.value as { type?: unknown; subtype?: unknown };
    process.stdout.write(
      `${where} ${String(value.type)}${value.subtype ? `/${String(value.subtype)}` : ''}\n`,
    );
  }
}
