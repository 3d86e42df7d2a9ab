import type { Duplex, Readable } from 'node:stream';
import type { ParseInput } from './approach.ts';

/** Calls `onChunk` for every chunk of `source` and resolves at its end; rejects (and stops) when `onChunk` throws. */
export function forEachChunk(source: Readable, onChunk: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    source.on('data', (chunk: Buffer) => {
      try {
        onChunk(chunk);
      } catch (error) {
        source.destroy();
        reject(error);
      }
    });
    source.once('end', resolve);
    source.once('error', reject);
  });
}

/**
 * Calls `onChunk` for every chunk of `input`: read synchronously where the run reads files as a plain loop does,
 * else from its stream. A chunk is valid only during the call.
 */
export async function forEachInputChunk(
  input: ParseInput,
  onChunk: (chunk: Uint8Array) => void,
): Promise<void> {
  const chunks = input.readSync?.();
  if (chunks === undefined) await forEachChunk(input.open(), onChunk);
  else for (const chunk of chunks) onChunk(chunk);
}

/**
 * Pipes `source` through a library's parsing stream and delivers what comes out. An `error` event stops the row:
 * `pipe` unpipes on error, so nothing more arrives. Records the library still pushes from the chunk in hand are
 * counted, then the promise rejects with the library's error.
 */
export function pipeThrough(
  source: Readable,
  parser: Duplex,
  onData: (data: unknown) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    parser.on('data', onData);
    parser.once('end', resolve);
    let stopped = false;
    // `on`, not `once`: some libraries emit one error per bad line, and an unheard error event would crash.
    parser.on('error', (error: unknown) => {
      if (stopped) return;
      stopped = true;
      source.destroy();
      setImmediate(() => reject(error));
    });
    source.pipe(parser);
  });
}

/**
 * Parses one line the way a hand-written loop does: blank lines skipped, a line that does not parse counted as a
 * problem and skipped.
 */
export function parseLineInto(line: string, sink: { value(value: unknown): void; problem(): void }): void {
  if (line.length === 0 || line === '\r') return;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    sink.problem();
    return;
  }
  sink.value(value);
}
