/**
 * The two plain loops the commands are timed against, as line splitters over one file's chunks. The benchmark's
 * in-process rows and the whole-process loop runner (`plain-loop-runner.ts`) both drive these, so that the loop a
 * ratio is taken against is the same code wherever it is measured; the reference loop's is the one `cursor-stream
 * bench` runs too.
 */

import { type PlainLoop, referenceLoopOf } from 'cursor-stream/measurement';

export { referenceLoopOf };

/** The name of the loop every ratio is taken against. */
export const REFERENCE_LOOP_NAME = 'reference-loop' as const;

/** The name of the plain loop that decodes each line on its own, measured beside the reference loop. */
export const LINE_DECODING_LOOP_NAME = 'buffer-indexof' as const;

/**
 * `Buffer#indexOf(10)` on the bytes, the partial line kept as a list of copied pieces (a reader's chunks may share
 * one buffer), one `toString` per line.
 */
export function lineDecodingLoopOf(onLine: (line: string) => void): PlainLoop {
  let parts: Buffer[] = [];
  return {
    chunk(bytes) {
      const chunk = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      let start = 0;
      for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
        if (parts.length === 0) onLine(chunk.toString('utf8', start, end));
        else {
          parts.push(chunk.subarray(start, end));
          onLine(Buffer.concat(parts).toString('utf8'));
          parts = [];
        }
        start = end + 1;
      }
      if (start < chunk.length) parts.push(Buffer.from(chunk.subarray(start)));
    },
    end() {
      onLine(Buffer.concat(parts).toString('utf8'));
      parts = [];
    },
  };
}

/** The plain loops by name: the rows the whole-process loop runner runs. */
export const PLAIN_LOOPS = {
  [REFERENCE_LOOP_NAME]: referenceLoopOf,
  [LINE_DECODING_LOOP_NAME]: lineDecodingLoopOf,
} as const satisfies Record<string, (onLine: (line: string) => void) => PlainLoop>;

/** The name of a plain loop. */
export type PlainLoopName = keyof typeof PLAIN_LOOPS;

/** Whether `name` is a plain loop's. */
export function isPlainLoopName(name: string): name is PlainLoopName {
  return Object.hasOwn(PLAIN_LOOPS, name);
}
