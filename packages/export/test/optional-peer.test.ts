import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ExportFailure } from '../src/log-exporter.ts';
import { importOptional } from '../src/optional-package.ts';
import { importPeer } from '../src/optional-peer.ts';

let project = '';
let below = '';

/** What `import()` throws for a package it cannot find beside the importer. */
function notFound(): Error {
  return Object.assign(new Error("Cannot find package 'fake-peer'"), { code: 'ERR_MODULE_NOT_FOUND' });
}

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'cursor-stream-peer-'));
  const peer = join(project, 'node_modules/fake-peer');
  await mkdir(peer, { recursive: true });
  await writeFile(join(peer, 'package.json'), JSON.stringify({ name: 'fake-peer', main: 'lib/index.js' }));
  await mkdir(join(peer, 'lib'));
  await writeFile(join(peer, 'lib/index.js'), 'exports.answer = 42;\n');
  below = join(project, 'logs/today');
  await mkdir(below, { recursive: true });
});

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe('importPeer', () => {
  test('takes the package found beside the importer without looking further', async () => {
    const beside = { answer: 1 };
    expect(await importPeer('fake-peer', async () => beside, below)).toBe(beside);
  });

  test('finds a package missing beside the importer in the project, from a folder below it', async () => {
    const loaded = await importPeer<{ answer: number }>('fake-peer', () => Promise.reject(notFound()), below);
    expect(loaded.answer).toBe(42);
  });

  test('fails with the first error when the package is in neither place', async () => {
    const first = notFound();
    await expect(importPeer('no-such-peer', () => Promise.reject(first), below)).rejects.toBe(first);
  });

  test('does not look elsewhere when the package beside the importer fails to load', async () => {
    const broken = new SyntaxError('Unexpected token');
    await expect(importPeer('fake-peer', () => Promise.reject(broken), below)).rejects.toBe(broken);
  });
});

describe('importOptional', () => {
  test.each([
    [
      'names the command that installs what is missing',
      () => importPeer('no-such-peer', () => Promise.reject(notFound()), below),
      'missing-package',
      '--format duckdb needs @duckdb/node-api, found neither from the working directory up nor beside ' +
        'cursor-stream: run npm install @duckdb/node-api',
    ],
    [
      'says that an installed package fails to load, and how to reinstall it',
      () =>
        Promise.reject(
          new TypeError("Cannot read properties of undefined (reading 'foo')\n    at index.js:1:23"),
        ),
      'broken-package',
      '--format duckdb needs @duckdb/node-api, which is installed but fails to load ' +
        "(Cannot read properties of undefined (reading 'foo')): reinstall it with npm install @duckdb/node-api",
    ],
  ])('%s, in one line', async (_, load, code, message) => {
    const failure = await importOptional('@duckdb/node-api', 'duckdb', load).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExportFailure);
    expect([(failure as ExportFailure).code, (failure as ExportFailure).message]).toEqual([code, message]);
  });
});
