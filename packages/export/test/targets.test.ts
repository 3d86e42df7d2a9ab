import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  checkExportFlags,
  EXPORT_FLAGS,
  EXPORT_TARGETS,
  type ExportFlagName,
  type ExportFlagValues,
  type ExportTargetEnv,
  type ExportTargetName,
  type ExportTargetOptions,
  exportTarget,
} from '../src/targets.ts';

const FLAG_NAMES = Object.keys(EXPORT_FLAGS) as ExportFlagName[];

/** For each target, flags it accepts and where the export then goes. A new target needs its own row here. */
const ACCEPTED = {
  otlp: [
    [{}, '<stdout>'],
    [{ output: '-' }, '<stdout>'],
    [{ output: 'traces.jsonl', includeContent: true }, 'traces.jsonl'],
    [{ endpoint: 'http://127.0.0.1:4318/v1/traces' }, 'http://127.0.0.1:4318/v1/traces'],
  ],
  duckdb: [[{ output: 'runs.duckdb' }, 'runs.duckdb']],
  clickhouse: [[{ url: 'https://db.example:8443/?database=runs' }, 'https://db.example:8443/?database=runs']],
} satisfies Record<ExportTargetName, [ExportFlagValues, string][]>;

describe('checkExportFlags', () => {
  test.each(
    Object.entries(ACCEPTED).flatMap(([format, rows]) =>
      rows.map(([flags, destination]) => [format as ExportTargetName, flags, destination] as const),
    ),
  )('--format %s accepts %j, exporting to %s', (format, flags, destination) => {
    const options = { format, ...flags };
    expect(checkExportFlags(options)).toEqual({ ok: true, value: options });
    expect(exportTarget(format).destination(flags)).toBe(destination);
  });

  test.each([
    [
      { format: 'duckdb', output: 'x', endpoint: 'http://h/' },
      'flag-not-for-target',
      '--endpoint',
      '--endpoint is for --format otlp',
    ],
    [
      { format: 'clickhouse', url: 'http://h/', includeContent: true },
      'flag-not-for-target',
      '--include-content',
      '--include-content is for --format otlp',
    ],
    [
      { format: 'otlp', url: 'http://h/' },
      'flag-not-for-target',
      '--url',
      '--url is for --format clickhouse',
    ],
    // The first flag only another target takes wins, in the order of the targets and of their flags.
    [
      { format: 'duckdb', url: 'http://h/', includeContent: true },
      'flag-not-for-target',
      '--include-content',
      '--include-content is for --format otlp',
    ],
    [
      { format: 'otlp', output: 'x', endpoint: 'http://h/' },
      'flags-conflict',
      '-o',
      '--format otlp writes to -o FILE or to --endpoint URL, not both',
    ],
    [{ format: 'duckdb' }, 'flag-missing', '-o', '--format duckdb needs -o FILE.duckdb'],
    [
      { format: 'clickhouse', output: 'x', url: 'http://h/' },
      'flags-conflict',
      '-o',
      '--format clickhouse takes --url, not -o',
    ],
    [{ format: 'clickhouse' }, 'flag-missing', '--url', '--format clickhouse needs --url URL'],
    [{ format: 'clickhouse', url: 'ftp://h/' }, 'invalid-url', '--url', 'not an http(s) URL: ftp://h/'],
    [{ format: 'otlp', endpoint: 'not a url' }, 'invalid-url', '--endpoint', 'not an http(s) URL: not a url'],
    [
      { format: 'otlp', endpoint: 'http://me:secret@h/' },
      'credentials-in-url',
      '--endpoint',
      'give credentials in the environment, not in the URL',
    ],
    [
      { format: 'otlp', endpoint: 'http://glc_SECRETTOKEN@h/v1/traces' },
      'credentials-in-url',
      '--endpoint',
      'give credentials in the environment, not in the URL',
    ],
    [
      // fetch sends no request to such a URL: the user goes in CLICKHOUSE_USER.
      { format: 'clickhouse', url: 'https://user@db.example:8443/' },
      'credentials-in-url',
      '--url',
      'give credentials in the environment, not in the URL',
    ],
    [
      { format: 'clickhouse', url: 'http://h/?password=x' },
      'credentials-in-url',
      '--url',
      'give credentials in the environment, not in the URL',
    ],
  ] satisfies [ExportTargetOptions, string, string, string][])(
    '%j is refused (%s, at %s): %s',
    (options, code, flag, message) => {
      expect(checkExportFlags(options)).toEqual({ ok: false, error: { code, flag, message } });
    },
  );

  const flagsArbitrary = fc.record(
    {
      output: fc.constantFrom('-', 'out.file'),
      endpoint: fc.constantFrom('http://127.0.0.1:4318/v1/traces', 'ftp://h/', 'http://u:p@h/'),
      url: fc.constantFrom('http://127.0.0.1:8123/', 'nope', 'http://h/?password=p'),
      includeContent: fc.boolean(),
    } satisfies Record<ExportFlagName, fc.Arbitrary<unknown>>,
    { requiredKeys: [] },
  );

  test.prop([fc.constantFrom(...EXPORT_TARGETS.map((target) => target.name)), flagsArbitrary])(
    'accepts no flag its target does not take, and names a flag of its own in every refusal',
    (format, flags) => {
      const checked = checkExportFlags({ format, ...flags });
      const target = exportTarget(format);
      const given = FLAG_NAMES.filter((flag) => flags[flag] !== undefined && flags[flag] !== false);
      if (checked.ok) {
        for (const flag of given) expect(target.flags[flag], flag).toBeDefined();
      } else {
        expect(FLAG_NAMES.map((flag) => EXPORT_FLAGS[flag].name)).toContain(checked.error.flag);
        expect(checked.error.message).not.toMatch(/\n|\.$/);
      }
    },
  );
});

describe('EXPORT_TARGETS', () => {
  test('each target takes only declared flags, with help for each', () => {
    for (const target of EXPORT_TARGETS) {
      for (const [flag, help] of Object.entries(target.flags)) {
        expect(FLAG_NAMES).toContain(flag);
        expect(help).toMatch(/^\S/);
      }
    }
  });

  test('a flag is keyed by its long name, camel-cased, as command lines read it', () => {
    for (const flag of FLAG_NAMES) {
      const long = EXPORT_FLAGS[flag].spec.match(/--([a-z-]+)/)?.[1] ?? '';
      expect(long.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())).toBe(flag);
    }
  });

  test('create loads the target and opens line output only for OTLP JSON lines', async () => {
    const opened: (string | undefined)[] = [];
    const env: ExportTargetEnv = {
      variables: {},
      onWarning: () => {},
      openLines(path) {
        opened.push(path);
        return async () => {};
      },
    };
    const runs: [ExportTargetName, ExportFlagValues][] = [
      ['otlp', { output: 'traces.jsonl' }],
      ['otlp', { endpoint: 'http://127.0.0.1:4318/v1/traces' }],
      ['duckdb', { output: ':memory:' }],
    ];
    for (const [format, flags] of runs) {
      const exporter = await exportTarget(format).create(flags, env);
      expect((await exporter.close()).logs).toBe(0);
    }
    expect(opened).toEqual(['traces.jsonl']);
  });
});
