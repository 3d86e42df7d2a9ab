/**
 * What a run started, wherever it went. The agent leads a process group of its own and every signal goes to the
 * group, but a descendant may leave it (`setsid`, a daemon's double fork) and outlive the run. On Linux such a
 * descendant is still found:
 *
 * - by its environment: the agent is started with {@link RUN_MARKER_VARIABLE} set to a value new for each run, which
 *   every descendant inherits whatever group or session it moves to, and which `/proc/<pid>/environ` shows (the
 *   way build servers find what a build left behind);
 * - by its ancestry, when the supervisor stops a live agent: the descendants of its process, read from
 *   `/proc/<pid>/stat` before the signal, even those that cleared their environment.
 *
 * A host that is killed outright (`SIGKILL`) runs no code of its own; a small watchdog (`/bin/sh`, in a group of its
 * own) holds a pipe from the host and, when the host's end closes while a run is going, kills the run's group and
 * every process with its marker. What no unprivileged process can find is a descendant that both left the group
 * and cleared its environment after its parent exited: following it needs a cgroup, or a subreaper
 * (`prctl(PR_SET_CHILD_SUBREAPER)`), which Node cannot ask for.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';

/** The variable that marks every process of a run (in the agent's environment, inherited by what it starts). */
export const RUN_MARKER_VARIABLE = 'CURSOR_STREAM_RUN';

/** Whether processes can be found through `/proc`. */
const PROC = process.platform === 'linux';

/** A marker for a new run: `CURSOR_STREAM_RUN=<value>` is in the environment of each of its processes. */
export function newRunMarker(): string {
  return randomUUID();
}

/** The `NAME=value` entry a marked process's environment holds. */
function markerEntry(marker: string): string {
  return `${RUN_MARKER_VARIABLE}=${marker}`;
}

/** The process ids listed in `/proc`; none where there is no `/proc`. */
async function processIds(): Promise<number[]> {
  if (!PROC) return [];
  try {
    const names = await readdir('/proc');
    return names.filter((name) => /^[1-9][0-9]*$/.test(name)).map(Number);
  } catch {
    return [];
  }
}

/** Whether a NUL-separated environment holds exactly `entry`. */
function holdsEntry(environ: Buffer, entry: Buffer): boolean {
  for (let at = environ.indexOf(entry); at !== -1; at = environ.indexOf(entry, at + 1)) {
    const end = at + entry.length;
    if ((at === 0 || environ[at - 1] === 0) && (end === environ.length || environ[end] === 0)) return true;
  }
  return false;
}

/** The live processes whose environment holds the run's marker (processes of other users cannot be read). */
export async function markedProcesses(marker: string): Promise<number[]> {
  const entry = Buffer.from(markerEntry(marker));
  const found: number[] = [];
  await Promise.all(
    (await processIds()).map(async (pid) => {
      try {
        if (holdsEntry(await readFile(`/proc/${pid}/environ`), entry)) found.push(pid);
      } catch {
        // Gone meanwhile, or not ours to read.
      }
    }),
  );
  return found;
}

/** A process as `/proc/<pid>/stat` shows it: its parent and its start time (which tells a reused pid apart). */
interface ProcessStat {
  pid: number;
  parent: number;
  start: string;
}

async function statOf(pid: number): Promise<ProcessStat | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'latin1');
    // The command name (field 2) may hold spaces and parentheses; the fields after its last `)` are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name: state (3), parent (4), ..., start time (22).
    const parent = Number(fields[1]);
    const start = fields[19];
    return start === undefined || !Number.isInteger(parent) ? undefined : { pid, parent, start };
  } catch {
    return undefined;
  }
}

/** A process found once, to be signalled later only if it is still the same process. */
export interface KnownProcess {
  pid: number;
  start: string;
}

/** Every live descendant of `root`, read from `/proc` (none elsewhere). */
export async function descendantsOf(root: number): Promise<KnownProcess[]> {
  const stats = (await Promise.all((await processIds()).map(statOf))).filter(
    (stat): stat is ProcessStat => stat !== undefined,
  );
  const children = new Map<number, ProcessStat[]>();
  for (const stat of stats) {
    const siblings = children.get(stat.parent);
    if (siblings === undefined) children.set(stat.parent, [stat]);
    else siblings.push(stat);
  }
  const found: KnownProcess[] = [];
  const queue = [root];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      found.push({ pid: child.pid, start: child.start });
      queue.push(child.pid);
    }
  }
  return found;
}

/** Whether a known process is still there as the same process (a pid may be reused once it is gone). */
export async function isSameProcess(known: KnownProcess): Promise<boolean> {
  return (await statOf(known.pid))?.start === known.start;
}

/** Sends `signal` to one process; `false` when it is gone (or not ours). */
export function signalProcess(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * The watchdog's script. It reads lines from the host: `group <pid>` names the run's process group, `done` says the
 * run ended (it then exits). When its input ends without `done`, the host is gone: it kills the group and, where
 * there is a `/proc`, every process whose environment holds the marker (`$1`), twice, for one that forked meanwhile.
 */
const WATCHDOG_SCRIPT = `group=
while read -r word value; do
  case $word in
    group) group=$value ;;
    done) exit 0 ;;
  esac
done
[ -n "$group" ] && kill -9 -"$group" 2>/dev/null
[ -d /proc/self ] || exit 0
for pass in 1 2; do
  for file in $(grep -lsF -e "$1" /proc/[0-9]*/environ); do
    pid=\${file#/proc/}
    pid=\${pid%/environ}
    [ "$pid" != "$$" ] && kill -9 "$pid" 2>/dev/null
  done
done
exit 0
`;

/** Ends a run's processes if its host dies first; see {@link startWatchdog}. */
export interface Watchdog {
  /** Names the process group the run's agent leads. */
  group(pid: number): void;
  /** The run has ended (its processes are handled by the host): the watchdog exits without doing anything. */
  done(): void;
}

/**
 * Starts the watchdog of a run marked `marker` (see the module comment); `undefined` where there are no process
 * groups, or when it cannot start (the run then goes on without it). It holds nothing of the host's: the host's
 * event loop does not wait for it.
 */
export function startWatchdog(marker: string): Watchdog | undefined {
  if (process.platform === 'win32') return undefined;
  let child: ChildProcess;
  try {
    child = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'cursor-stream-watchdog', markerEntry(marker)], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
  } catch {
    return undefined;
  }
  // A watchdog that could not start or has gone is no failure of the run.
  child.on('error', () => {});
  // A spawn that failed at once (no descriptors left: EMFILE) gives a child without pipes.
  const input = child.stdin;
  if (input === null || input === undefined) return undefined;
  input.on('error', () => {});
  child.unref();
  (input as { unref?: () => void }).unref?.();
  const send = (line: string, end: boolean) => {
    if (input.writableEnded || input.destroyed) return;
    if (end) input.end(line);
    else input.write(line);
  };
  return {
    group: (pid) => send(`group ${pid}\n`, false),
    done: () => send('done\n', true),
  };
}
