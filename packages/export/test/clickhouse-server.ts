/**
 * Starts the machine's ClickHouse server (Debian's `clickhouse-server`, or a newer `clickhouse server`) on loopback
 * ports in a temporary directory, for the tests; `undefined` when none is installed.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from '@cursor-stream/test-kit/free-port';

/** A running server. */
export interface TestClickHouse {
  url: string;
  stop(): Promise<void>;
}

function onPath(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/bin'];
  return dirs.map((dir) => join(dir, name)).find((path) => existsSync(path));
}

/** The command that runs a server, or `undefined`. */
export function clickHouseCommand(): { command: string; args: string[] } | undefined {
  const server = onPath('clickhouse-server');
  if (server !== undefined) return { command: server, args: [] };
  const multi = onPath('clickhouse');
  return multi === undefined ? undefined : { command: multi, args: ['server'] };
}

function config(dir: string, httpPort: number, tcpPort: number): string {
  return `<yandex>
  <logger><level>warning</level><console>1</console></logger>
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>5368709120</mark_cache_size>
</yandex>
`;
}

const USERS = `<yandex>
  <profiles><default></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`;

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { method: 'POST', body: 'SELECT 1' })).ok;
  } catch {
    return false;
  }
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

/** Starts a server and waits (up to 60 s) until it answers; `undefined` when ClickHouse is not installed. */
export async function startClickHouse(): Promise<TestClickHouse | undefined> {
  const found = clickHouseCommand();
  if (found === undefined) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'cursor-stream-clickhouse-'));
  const [httpPort, tcpPort] = [await freePort(), await freePort()];
  await writeFile(join(dir, 'config.xml'), config(dir, httpPort, tcpPort));
  await writeFile(join(dir, 'users.xml'), USERS);
  const child = spawn(found.command, [...found.args, `--config-file=${join(dir, 'config.xml')}`], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString();
  });
  const url = `http://127.0.0.1:${httpPort}/`;
  const stop = async () => {
    await stopProcess(child);
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while (!(await answers(url))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`clickhouse-server did not start: ${stderr.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, stop };
}
