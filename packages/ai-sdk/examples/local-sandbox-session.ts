// A sandbox session with no sandbox: an AI SDK `SandboxSession` whose commands run on this machine, as this user,
// in a folder of it (`bash -c`, each command leading a process group of its own that ends with it). It gives a
// harness the process and file API it expects, with no isolation at all: use it only where the agent may do
// whatever you may.
import { spawn } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { constants } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { HarnessV1NetworkSandboxSession, HarnessV1StartOptions } from '@ai-sdk/harness';

/** The AI SDK's `SandboxSession` (the basic one, without ports). */
export type SandboxSession = Exclude<HarnessV1StartOptions['sandboxSession'], HarnessV1NetworkSandboxSession>;

/** Ends a command's process group: the command and whatever it started that stayed in its group. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
}

function isMissing(thrown: unknown): boolean {
  return (thrown as { code?: unknown } | null)?.code === 'ENOENT';
}

/** A local sandbox session over `root`, where relative paths and commands without a working directory go. */
export function createLocalSandboxSession(root: string): SandboxSession {
  const at = (path: string) => (isAbsolute(path) ? path : resolve(root, path));

  async function readBinaryFile({ path }: { path: string }): Promise<Uint8Array<ArrayBuffer> | null> {
    try {
      return new Uint8Array(await readFile(at(path)));
    } catch (thrown) {
      if (isMissing(thrown)) return null;
      throw thrown;
    }
  }

  async function writeBinaryFile({ path, content }: { path: string; content: Uint8Array }): Promise<void> {
    await mkdir(dirname(at(path)), { recursive: true });
    await writeFile(at(path), content);
  }

  const session: SandboxSession = {
    description: `The local folder ${root}: commands run on this machine, unsandboxed.`,
    async readFile({ path }) {
      const bytes = await readBinaryFile({ path });
      return bytes === null ? null : new Blob([bytes]).stream();
    },
    readBinaryFile,
    async readTextFile({ path, startLine, endLine }) {
      const bytes = await readBinaryFile({ path });
      if (bytes === null) return null;
      const text = new TextDecoder().decode(bytes);
      if (startLine === undefined && endLine === undefined) return text;
      return text
        .split('\n')
        .slice((startLine ?? 1) - 1, endLine)
        .join('\n');
    },
    async writeFile({ path, content }) {
      await writeBinaryFile({ path, content: new Uint8Array(await new Response(content).arrayBuffer()) });
    },
    writeBinaryFile,
    async writeTextFile({ path, content }) {
      await writeBinaryFile({ path, content: new TextEncoder().encode(content) });
    },
    async spawn({ command, workingDirectory, env, abortSignal }) {
      abortSignal?.throwIfAborted();
      const cwd = workingDirectory === undefined ? root : at(workingDirectory);
      if (!(await stat(cwd)).isDirectory()) throw new Error(`${cwd} is not a directory.`);
      const child = spawn('bash', ['-c', command], {
        cwd,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      const onAbort = () => killGroup(child.pid);
      abortSignal?.addEventListener('abort', onAbort, { once: true });
      const exited = new Promise<{ exitCode: number }>((resolveExit, rejectExit) => {
        let settled = false;
        const settle = (exitCode: number) => {
          if (settled) return;
          settled = true;
          abortSignal?.removeEventListener('abort', onAbort);
          // What the command left in its group ends with it.
          killGroup(child.pid);
          if (abortSignal?.aborted) rejectExit(abortSignal.reason);
          else resolveExit({ exitCode });
        };
        // A command ended by a signal exits as a shell reports it: 128 + the signal's number.
        child.on('exit', (code, signal) =>
          settle(code ?? 128 + (signal === null ? 0 : constants.signals[signal])),
        );
        child.on('error', () => settle(127));
      });
      exited.catch(() => {});
      return {
        ...(child.pid === undefined ? {} : { pid: child.pid }),
        stdout: Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
        stderr: Readable.toWeb(child.stderr) as ReadableStream<Uint8Array>,
        wait: () => exited,
        async kill() {
          killGroup(child.pid);
          await exited.catch(() => {});
        },
      };
    },
    async run(options) {
      const child = await session.spawn(options);
      const [stdout, stderr, { exitCode }] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.wait(),
      ]);
      return { exitCode, stdout, stderr };
    },
  };
  return session;
}
