/**
 * The logs the memory rows read, written streaming and cached under `corpus/generated/`: many ordinary sessions
 * back to back, gzipped (what a day of captured runs looks like), one session whose assistant text alone is huge,
 * and one whose text comes in a few huge records. Neither is ever held in memory, here or (the point of the rows) by the commands.
 */

import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Log } from './throughput.ts';

/** Bytes of the read tool's output in each ordinary session: what brings a session to about 5 KB. */
const READ_OUTPUT_CHARS = 3000;
const READ_OUTPUT =
  `# Project\\n\\n${'This project reads agent logs and reports what they did. '.repeat(60)}`.slice(
    0,
    READ_OUTPUT_CHARS,
  );

/** One ordinary session in the official dialect: init, prompt, text, a read call, more text, and its result. */
export function ordinarySession(index: number): string {
  const id = `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
  const call = `toolu_${index.toString(36)}`;
  const text = (part: string) =>
    `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"${part}"}]},"session_id":"${id}"}`;
  const args = '{"path":"README.md"}';
  return [
    `{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/home/user/project","session_id":"${id}","model":"Claude 4 Sonnet","permissionMode":"default"}`,
    `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"Summarize README.md (run ${index})"}]},"session_id":"${id}"}`,
    text('I will read README.md '),
    `{"type":"tool_call","subtype":"started","call_id":"${call}","tool_call":{"readToolCall":{"args":${args}}},"session_id":"${id}"}`,
    `{"type":"tool_call","subtype":"completed","call_id":"${call}","tool_call":{"readToolCall":{"args":${args},"result":{"success":{"content":"${READ_OUTPUT}","isEmpty":false,"exceededLimit":false,"totalLines":54,"totalChars":${READ_OUTPUT_CHARS}}}}},"session_id":"${id}"}`,
    text('and summarize it.'),
    `{"type":"result","subtype":"success","duration_ms":5234,"duration_api_ms":5100,"is_error":false,"result":"I will read README.md and summarize it.","session_id":"${id}","request_id":"r-${index}"}`,
    '',
  ].join('\n');
}

/** One session whose assistant text is `textBytes` long, in records of 16 KiB of text each. */
export function* hugeTextSession(textBytes: number): Generator<string> {
  const id = '00000000-0000-4000-8000-7e7700000001';
  yield `{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/home/user/project","session_id":"${id}","model":"Claude 4 Sonnet","permissionMode":"default"}\n`;
  yield `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"Write the whole book"}]},"session_id":"${id}"}\n`;
  const piece = 'All work and no play makes a long session. '.repeat(400).slice(0, 16 * 1024);
  const record = `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"${piece}"}]},"session_id":"${id}"}\n`;
  const batch = record.repeat(64);
  for (let written = 0; written < textBytes; written += 64 * piece.length) yield batch;
  yield `{"type":"result","subtype":"success","duration_ms":600000,"duration_api_ms":590000,"is_error":false,"result":"Done.","session_id":"${id}","request_id":"r-huge"}\n`;
}

/** One session whose assistant text comes in `count` records of `textBytes` of text each. */
export function* largeRecordsSession(count: number, textBytes: number): Generator<string> {
  const id = '00000000-0000-4000-8000-7e7700000002';
  yield `{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/home/user/project","session_id":"${id}","model":"Claude 4 Sonnet","permissionMode":"default"}\n`;
  yield `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"Print it all at once"}]},"session_id":"${id}"}\n`;
  const piece = 'One record, larger than any socket buffer. '
    .repeat(Math.ceil(textBytes / 43))
    .slice(0, textBytes);
  for (let index = 0; index < count; index++) {
    yield `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"${index} `;
    yield piece;
    yield `"}]},"session_id":"${id}"}\n`;
  }
  yield `{"type":"result","subtype":"success","duration_ms":60000,"duration_api_ms":59000,"is_error":false,"result":"Done.","session_id":"${id}","request_id":"r-large"}\n`;
}

function* ordinarySessions(count: number): Generator<string> {
  const perBatch = 256;
  for (let first = 0; first < count; first += perBatch) {
    const batch: string[] = [];
    for (let index = first; index < Math.min(count, first + perBatch); index++)
      batch.push(ordinarySession(index));
    yield batch.join('');
  }
}

/** Writes text chunks to a file (gzipped at level 1 when `gzip`), atomically: a cut run leaves no half file. */
async function writeChunks(file: string, chunks: Iterable<string>, gzip: boolean): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  const output = createWriteStream(partial);
  const sink = gzip ? createGzip({ level: 1 }) : output;
  if (gzip) sink.pipe(output);
  for (const chunk of chunks) if (!sink.write(chunk)) await once(sink, 'drain');
  sink.end();
  await finished(output);
  await rename(partial, file);
}

/** The gzipped log of `count` ordinary sessions, made on first use. */
export async function ensureManySessionsLog(file: string, count: number, log: Log): Promise<void> {
  if (existsSync(file)) return;
  log(
    `generating ${file} (${count} sessions of ~${(ordinarySession(0).length / 1000).toFixed(1)} KB, gzipped) ...`,
  );
  await writeChunks(file, ordinarySessions(count), true);
}

/** The log of one session with `count` assistant records of `textBytes` of text each, made on first use. */
export async function ensureLargeRecordsLog(
  file: string,
  count: number,
  textBytes: number,
  log: Log,
): Promise<void> {
  if (existsSync(file)) return;
  log(`generating ${file} (one session, ${count} records of ${textBytes / 1e6} MB of assistant text) ...`);
  await writeChunks(file, largeRecordsSession(count, textBytes), false);
}

/** The log of one session with `textBytes` of assistant text, made on first use. */
export async function ensureHugeTextLog(file: string, textBytes: number, log: Log): Promise<void> {
  if (existsSync(file)) return;
  log(`generating ${file} (one session, ${textBytes / 1e6} MB of assistant text) ...`);
  await writeChunks(file, hugeTextSession(textBytes), false);
}
