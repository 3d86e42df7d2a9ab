/**
 * Bounded capture of a process stream (stderr, a subcommand's stdout): memory stays fixed however much the process
 * writes, and both ends survive, since a CLI tends to name the failure first and print its final reason last.
 */

/** Text a {@link BoundedCapture} kept. */
export interface CapturedText {
  /** The captured text; when bytes were dropped, the head and the tail joined by an omission marker. */
  text: string;
  /** Bytes written in all. */
  totalBytes: number;
  /** Whether bytes were dropped from the middle. */
  truncated: boolean;
}

/** Keeps at most `limit` bytes of a byte stream: the first half and the last half. */
export interface BoundedCapture {
  /** Takes the next chunk. */
  write(chunk: Uint8Array): void;
  /** What was kept so far, decoded as UTF-8 (a character cut at the seam decodes as U+FFFD). */
  read(): CapturedText;
}

/** Default bound of captured stderr and stdout: 64 KiB. */
export const DEFAULT_CAPTURE_BYTES = 64 * 1024;

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const joined = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.length;
  }
  return joined;
}

/** Creates a capture that keeps `limit` bytes at most (half from the start, half from the end). */
export function createBoundedCapture(limit: number = DEFAULT_CAPTURE_BYTES): BoundedCapture {
  const headLimit = Math.ceil(limit / 2);
  const tailLimit = limit - headLimit;
  const head: Uint8Array[] = [];
  let headBytes = 0;
  // The tail is a list of recent chunks trimmed from the front, so a long stream is never copied whole.
  let tail: Uint8Array[] = [];
  let tailBytes = 0;
  let totalBytes = 0;

  function keepTail(chunk: Uint8Array): void {
    tail.push(chunk);
    tailBytes += chunk.length;
    while (tail.length > 0 && tailBytes - (tail[0]?.length ?? 0) >= tailLimit) {
      tailBytes -= tail[0]?.length ?? 0;
      tail = tail.slice(1);
    }
  }

  return {
    write(chunk) {
      totalBytes += chunk.length;
      const toHead = Math.min(headLimit - headBytes, chunk.length);
      if (toHead > 0) {
        head.push(chunk.subarray(0, toHead));
        headBytes += toHead;
      }
      if (toHead < chunk.length) keepTail(chunk.subarray(toHead));
    },
    read() {
      const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
      const allTail = concat(tail, tailBytes);
      const keptTail = allTail.subarray(Math.max(0, allTail.length - tailLimit));
      const omitted = totalBytes - headBytes - keptTail.length;
      if (omitted === 0)
        return { text: decode(concat([...head, keptTail], totalBytes)), totalBytes, truncated: false };
      const text = `${decode(concat(head, headBytes))}\n[… ${omitted} bytes omitted …]\n${decode(keptTail)}`;
      return { text, totalBytes, truncated: true };
    },
  };
}
