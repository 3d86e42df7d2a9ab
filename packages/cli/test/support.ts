import type { CliIo, OutputStream } from '../src/io/cli-io.ts';

/** An output stream that keeps what is written. */
export interface CapturedStream extends OutputStream {
  readonly text: string;
}

/** A writable stand-in for stdout or stderr that records every write. */
export function captureStream(isTTY = false): CapturedStream {
  const parts: (string | Uint8Array)[] = [];
  return {
    isTTY,
    write(chunk: string | Uint8Array) {
      // A batch of lines written as bytes holds whole lines, so it decodes on its own.
      parts.push(typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk));
      return true;
    },
    once: () => undefined,
    get text() {
      // Bytes are UTF-8 and may cut a character: decoded together with the text around them.
      return Buffer.concat(
        parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)),
      ).toString();
    },
  };
}

/** CLI streams for an in-process run: captured stdout and stderr, stdin from the given chunks. */
export function fakeIo(stdin: readonly (string | Uint8Array)[] = [], env: Record<string, string> = {}) {
  const stdout = captureStream();
  const stderr = captureStream();
  const io: CliIo = {
    stdin: {
      isTTY: false,
      async *[Symbol.asyncIterator]() {
        yield* stdin;
      },
    },
    stdout,
    stderr,
    env,
  };
  return { io, stdout, stderr };
}
