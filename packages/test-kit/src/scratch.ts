/** Scratch folders: made fresh under the system's temporary folder, removed when the tests are done with them. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A scratch folder. */
export interface ScratchFolder {
  /** Its path. */
  readonly dir: string;
  /** Removes it with everything in it. */
  remove(): void;
}

/** Makes a scratch folder now, named after `name` (`cursor-stream-<name>-XXXXXX`). */
export function scratchFolder(name: string): ScratchFolder {
  const dir = mkdtempSync(join(tmpdir(), `cursor-stream-${name}-`));
  // A child process a test started (an agent, a server) may still be writing in it for a moment: retried, as Node
  // retries a removal that meets a folder filled meanwhile.
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }) };
}
