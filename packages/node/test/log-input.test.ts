import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createLineCounter,
  createTextSniffer,
  expandLogPaths,
  firstNulByte,
  isLogFileName,
  looksLikeBinary,
  sdkStoreRunRows,
  startsLikeGzip,
  withoutRepeatedLogs,
} from '@cursor-stream/node/logs';
import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect } from 'vitest';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('createLineCounter', () => {
  test('counts a last line without a line feed as a line', () => {
    const counter = createLineCounter();
    counter.add(bytes('{"a":1}\n{"b"'));
    counter.add(bytes(':2}'));
    expect([counter.lines, counter.bytes]).toEqual([2, 15]);
  });

  test('counts blank lines and a trailing line feed ends the last line', () => {
    const counter = createLineCounter();
    counter.add(bytes('a\n\n'));
    counter.add(bytes('b\n'));
    expect(counter.lines).toBe(3);
  });

  test('an empty input has no lines', () => {
    const counter = createLineCounter();
    counter.add(new Uint8Array(0));
    expect([counter.lines, counter.bytes]).toEqual([0, 0]);
  });
});

describe('text sniffing', () => {
  test('the gzip magic number is recognised', () => {
    expect([startsLikeGzip(Uint8Array.of(0x1f, 0x8b, 8)), startsLikeGzip(bytes('{"type"'))]).toEqual([
      true,
      false,
    ]);
  });

  test('a NUL byte is found where it is, and JSON text has none', () => {
    expect([firstNulByte(Uint8Array.of(0x7b, 0x00)), firstNulByte(bytes('{"a":"\\u0000"}'))]).toEqual([
      1, -1,
    ]);
  });
});

describe('sdkStoreRunRows', () => {
  const entry = (path: string) => ({ path, size: undefined, regularFile: true });
  test('names the run rows read beside the events of the same store, plain or gzipped, and no others', () => {
    const paths = [
      join('store', 'runs.ndjson'),
      join('store', 'run_events.ndjson'),
      join('zipped', 'runs.ndjson.gz'),
      join('zipped', 'run_events.ndjson.gz'),
      join('rows-alone', 'runs.ndjson'),
      join('other', 'run_events.ndjson'),
      join('other', 'my-runs.ndjson'),
    ];
    expect([...sdkStoreRunRows(paths.map(entry))]).toEqual([
      join('store', 'runs.ndjson'),
      join('zipped', 'runs.ndjson.gz'),
    ]);
    expect(sdkStoreRunRows([entry('runs.ndjson')]).size).toBe(0);
  });
});

describe('expandLogPaths', () => {
  let root = '';

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'cursor-stream-walk-'));
    await mkdir(join(root, 'logs/nested'), { recursive: true });
    await mkdir(join(root, 'empty'));
    await writeFile(join(root, 'logs/b.ndjson'), '{}\n');
    await writeFile(join(root, 'logs/a.jsonl.gz'), '');
    await writeFile(join(root, 'logs/notes.txt'), 'not a log');
    await writeFile(join(root, 'logs/nested/run.log'), '{}\n');
    await symlink(join(root, 'logs'), join(root, 'logs/nested/loop.log'));
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test.skipIf(process.platform !== 'linux')(
    'a log whose name is not UTF-8 is said to be so, not "no such file"; a real U+FFFD in a name is read',
    async () => {
      const folder = join(root, 'not-utf8');
      await mkdir(folder, { recursive: true });
      await writeFile(
        Buffer.concat([Buffer.from(`${folder}/run-`), Buffer.from([0xff]), Buffer.from('.ndjson')]),
        '{}\n',
      );
      await writeFile(join(folder, 'ok-\uFFFD.ndjson'), '{}\n');
      await writeFile(
        Buffer.concat([Buffer.from(`${folder}/notes-`), Buffer.from([0xfe]), Buffer.from('.txt')]),
        '',
      );
      const entries = await expandLogPaths([folder]);
      expect(entries).toEqual([
        { path: join(folder, 'ok-\uFFFD.ndjson'), size: 3, regularFile: true },
        {
          path: join(folder, 'run-\uFFFD.ndjson'),
          error: {
            code: 'read-failed',
            path: join(folder, 'run-\uFFFD.ndjson'),
            message:
              'the file name is not valid UTF-8, so it cannot be opened by the name shown: rename it to read it',
          },
        },
      ]);
    },
  );

  test('log names are .ndjson, .jsonl and .log, plain or gzipped', () => {
    expect(
      ['a.ndjson', 'a.jsonl', 'a.log', 'a.LOG.gz', 'a.json', 'a.gz', 'a.ndjson.bak'].map(isLogFileName),
    ).toEqual([true, true, true, true, false, false, false]);
  });

  test('a directory becomes its logs in name order, depth first, without following a link back up', async () => {
    const entries = await expandLogPaths([join(root, 'logs')]);
    expect(entries.map((entry) => entry.path.slice(root.length + 1))).toEqual([
      'logs/a.jsonl.gz',
      'logs/b.ndjson',
      'logs/nested/run.log',
    ]);
  });

  test('without sizes, a walk lists the same logs, regular files, with no size; a link to a file is still followed', async () => {
    await writeFile(join(root, 'outside.ndjson'), '{}\n');
    await symlink(join(root, 'outside.ndjson'), join(root, 'logs/nested/to-b.ndjson'));
    try {
      const withSizes = await expandLogPaths([join(root, 'logs')]);
      const without = await expandLogPaths([join(root, 'logs')], { sizes: false });
      expect(without.map((entry) => entry.path)).toEqual(withSizes.map((entry) => entry.path));
      expect(withSizes.map((entry) => ('size' in entry ? entry.size : 'error'))).toEqual([0, 3, 3, 3]);
      expect(
        without.map((entry) => ('regularFile' in entry ? [entry.regularFile, entry.size] : 'error')),
      ).toEqual([
        [true, undefined],
        [true, undefined],
        [true, undefined],
        // Only a stat tells what a link names: a link to a file keeps its size.
        [true, 3],
      ]);
    } finally {
      await rm(join(root, 'logs/nested/to-b.ndjson'));
    }
  });

  test('a file reached by its name and by links is listed once, by the first name in walk order', async () => {
    await writeFile(join(root, 'elsewhere.ndjson'), '{}\n');
    const links = [
      [join(root, 'logs/b.ndjson'), 'logs/latest.ndjson'],
      [join(root, 'elsewhere.ndjson'), 'logs/nested/x.ndjson'],
      [join(root, 'elsewhere.ndjson'), 'logs/nested/y.ndjson'],
      [join(root, 'missing.ndjson'), 'logs/nested/z.ndjson'],
    ];
    for (const [target, name] of links) await symlink(target as string, join(root, name as string));
    try {
      for (const sizes of [true, false]) {
        const entries = await expandLogPaths([join(root, 'logs')], { sizes });
        expect(entries.map((entry) => entry.path.slice(root.length + 1))).toEqual([
          'logs/a.jsonl.gz',
          'logs/b.ndjson',
          'logs/nested/run.log',
          'logs/nested/x.ndjson',
          // A link that leads nowhere is kept, for its reader to say so.
          'logs/nested/z.ndjson',
        ]);
      }
    } finally {
      for (const [, name] of links) await rm(join(root, name as string));
    }
  });

  test.skipIf(process.platform === 'win32')(
    'a pipe named like a log, or a link to one, is said and not read: it could hold the walk up; a link to a folder is not followed',
    async () => {
      const folder = join(root, 'pipes');
      await rm(folder, { recursive: true, force: true });
      await mkdir(folder, { recursive: true });
      execFileSync('mkfifo', [join(folder, 'live.ndjson'), join(folder, 'other-pipe')]);
      await symlink(join(folder, 'live.ndjson'), join(folder, 'to-live.jsonl'));
      await symlink(join(root, 'logs'), join(folder, 'to-folder.log'));
      await writeFile(join(folder, 'run.ndjson'), '{}\n');
      const message =
        'a pipe, not a regular file: a folder is walked for regular files only, so that nothing can hold it up; name it on its own to read it';
      for (const sizes of [true, false]) {
        const entries = await expandLogPaths([folder], { sizes });
        expect(entries.map((entry) => ('error' in entry ? entry.error : entry.path))).toEqual([
          { code: 'read-failed', path: join(folder, 'live.ndjson'), message },
          join(folder, 'run.ndjson'),
          { code: 'read-failed', path: join(folder, 'to-live.jsonl'), message },
        ]);
      }
    },
  );

  test('a link named like a log that leads nowhere is listed, to be said unreadable, not passed over', async () => {
    const dangling = join(root, 'logs/nested/gone.ndjson');
    await symlink(join(root, 'nowhere.ndjson'), dangling);
    try {
      for (const sizes of [true, false]) {
        const entries = await expandLogPaths([join(root, 'logs')], { sizes });
        expect(entries.find((entry) => entry.path === dangling)).toEqual({
          path: dangling,
          size: undefined,
          regularFile: false,
        });
      }
    } finally {
      await rm(dangling);
    }
  });

  test('paths given together that name one file (again, inside a folder given, through a link) keep it once, and say so', async () => {
    const link = join(root, 'link-to-b.ndjson');
    await symlink(join(root, 'logs/b.ndjson'), link);
    try {
      const paths = [
        join(root, 'logs/b.ndjson'),
        join(root, 'logs'),
        link,
        `${root}/logs/./b.ndjson`,
        join(root, 'logs/b.ndjson'),
        join(root, 'missing.ndjson'),
        join(root, 'missing.ndjson'),
        '-',
      ];
      const { entries, leftOut } = withoutRepeatedLogs(paths, await expandLogPaths(paths));
      const short = (path: string) => path.replace(root, 'ROOT');
      expect(entries.map((entry) => short(entry.path))).toEqual([
        'ROOT/logs/b.ndjson',
        'ROOT/logs/a.jsonl.gz',
        'ROOT/logs/nested/run.log',
        // A path that names no file is kept, for its reader to say so, each time.
        'ROOT/missing.ndjson',
        'ROOT/missing.ndjson',
        '-',
      ]);
      expect(leftOut.map((note) => [note.code, short(note.path ?? ''), short(note.message)])).toEqual([
        ['counted-elsewhere', 'ROOT/logs/b.ndjson', 'named twice: read once'],
        ['counted-elsewhere', 'ROOT/link-to-b.ndjson', 'the same file as ROOT/logs/b.ndjson: read once'],
        ['counted-elsewhere', 'ROOT/logs/./b.ndjson', 'the same file as ROOT/logs/b.ndjson: read once'],
        ['counted-elsewhere', 'ROOT/logs/b.ndjson', 'named twice: read once'],
      ]);
      // One path is never compared: a walk of one folder reads each file once already.
      const one = await expandLogPaths([join(root, 'logs')]);
      expect(withoutRepeatedLogs([join(root, 'logs')], one).entries).toBe(one);
    } finally {
      await rm(link);
    }
  });

  test('files, missing paths and - are kept in argument order', async () => {
    const entries = await expandLogPaths(['-', join(root, 'missing.ndjson'), join(root, 'logs/notes.txt')]);
    expect(entries.map((entry) => [entry.path.replace(root, 'ROOT'), 'error' in entry])).toEqual([
      ['-', false],
      ['ROOT/missing.ndjson', false],
      ['ROOT/logs/notes.txt', false],
    ]);
  });

  test('a directory without logs is an error naming it', async () => {
    const [entry] = await expandLogPaths([join(root, 'empty')]);
    expect(entry !== undefined && 'error' in entry ? entry.error.code : undefined).toBe('no-logs-found');
  });

  test('says which paths were regular files when listed: what a walk finds, a file named, not a pipe', async () => {
    const fifo = join(root, 'pipe.ndjson');
    execFileSync('mkfifo', [fifo]);
    try {
      const entries = await expandLogPaths([
        join(root, 'logs'),
        join(root, 'logs/notes.txt'),
        fifo,
        join(root, 'missing.ndjson'),
        '-',
      ]);
      expect(entries.map((entry) => ('error' in entry ? 'error' : entry.regularFile))).toEqual([
        true,
        true,
        true,
        true,
        false,
        false,
        false,
      ]);
    } finally {
      await rm(fifo);
    }
  });
});

describe('looksLikeBinary', () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);

  test('random bytes are not text; genuine U+FFFD characters and one bad byte are', () => {
    const random = Uint8Array.from({ length: 4096 }, (_, i) => ((i * 2654435761) >>> 24) | 0x80);
    expect(looksLikeBinary(random)).toBe(true);
    expect(looksLikeBinary(utf8(`{"text":"${'\uFFFD'.repeat(100)}"}\n`))).toBe(false);
    expect(looksLikeBinary(Uint8Array.from([...utf8('{"a":"'), 0xff, ...utf8('"}\n')]))).toBe(false);
  });

  test('a character cut by the end of the chunk is not counted', () => {
    const euro = utf8('€'.repeat(20));
    expect(looksLikeBinary(euro.subarray(0, euro.length - 1))).toBe(false);
  });
});

describe('createTextSniffer', () => {
  const verdict = (chunks: readonly Uint8Array[], prefix: number): string | null => {
    const sniffer = createTextSniffer(prefix);
    for (const chunk of chunks) {
      const reason = sniffer.check(chunk);
      if (reason !== null) return reason;
    }
    return null;
  };
  const byteArb = fc.oneof(
    fc.constantFrom(0x00, 0xef, 0xbf, 0xbd, 0xff, 0x80, 0x0a),
    fc.integer({ min: 0x20, max: 0x7e }),
  );

  test.prop([fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(300), { maxLength: 8 }), fc.nat(300)])(
    'judges the same bytes the same however they are cut into chunks',
    (bytes, cuts, prefix) => {
      const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
      const chunks = [0, ...points].map((start, index) =>
        bytes.subarray(start, [...points, bytes.length][index]),
      );
      expect(verdict(chunks, prefix + 1)).toBe(verdict([bytes], prefix + 1));
    },
  );

  /** Undecodable sequences in bytes beyond their genuine U+FFFD; a sequence cut by their end is not one. */
  const undecodable = (bytes: Uint8Array): number => {
    const decoded = [...new TextDecoder().decode(bytes, { stream: true })];
    let genuine = 0;
    for (let at = 0; at + 2 < bytes.length; at++)
      if (bytes[at] === 0xef && bytes[at + 1] === 0xbf && bytes[at + 2] === 0xbd) genuine++;
    return decoded.filter((c) => c === '\uFFFD').length - genuine;
  };
  /**
   * The verdict by its definition, after each chunk: a NUL in the bytes seen with no line feed before it, else more
   * undecodable sequences than allowed in all the bytes seen, within the prefix.
   */
  const defined = (chunks: readonly Uint8Array[], prefix: number): string | null => {
    const all = Buffer.concat(chunks);
    let seen = 0;
    for (const chunk of chunks) {
      if (seen >= prefix) break;
      const part = chunk.subarray(0, prefix - seen);
      const sofar = all.subarray(0, seen + part.length);
      const nul = sofar.indexOf(0);
      const lineFeed = sofar.indexOf(0x0a);
      if (nul !== -1 && (lineFeed === -1 || nul < lineFeed)) {
        const bom = (all[0] === 0xff && all[1] === 0xfe) || (all[0] === 0xfe && all[1] === 0xff);
        const where = `NUL byte at offset ${nul}`;
        return bom
          ? `UTF-16 text, ${where}; convert it to UTF-8 first, e.g. with iconv -f UTF-16 -t UTF-8`
          : where;
      }
      seen += part.length;
      if (undecodable(all.subarray(0, seen)) > 8) return 'not UTF-8';
    }
    return null;
  };
  const textArb = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }).map((text) => new TextEncoder().encode(text)),
    fc.array(byteArb, { maxLength: 40 }).map((list) => Uint8Array.from(list)),
  );

  test.prop([fc.array(textArb, { maxLength: 12 }), fc.nat(400)])(
    'says what its definition says of whole text, broken text and both, chunk by chunk',
    (pieces, prefix) => {
      expect(verdict(pieces, prefix + 1)).toBe(defined(pieces, prefix + 1));
    },
  );

  test.each(['utf16le', 'utf16be'])(
    'names UTF-16 text with its byte order mark (%s), cut anywhere',
    (encoding) => {
      const little = Buffer.from('\ufeff{"type":"system","subtype":"init"}\n', 'utf16le');
      const bytes = encoding === 'utf16le' ? little : Buffer.from(little).swap16();
      const said = `UTF-16 text, NUL byte at offset ${encoding === 'utf16le' ? 3 : 2}; convert it to UTF-8 first, e.g. with iconv -f UTF-16 -t UTF-8`;
      for (let cut = 0; cut <= 6; cut++) {
        expect(verdict([bytes.subarray(0, cut), bytes.subarray(cut)], 65536)).toBe(said);
      }
    },
  );

  test.prop([fc.array(byteArb, { maxLength: 300 }), fc.array(fc.nat(300), { maxLength: 8 })])(
    'in particular on NULs, bad bytes and genuine U+FFFD cut anywhere',
    (list, cuts) => {
      const bytes = Uint8Array.from(list);
      const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
      const chunks = [0, ...points].map((start, index) =>
        bytes.subarray(start, [...points, bytes.length][index]),
      );
      expect(verdict(chunks, 200)).toBe(verdict([bytes], 200));
    },
  );
});
