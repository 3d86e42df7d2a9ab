/**
 * `@cursor-stream/export/targets`: the export targets, one entry each, from which a command line derives its
 * choices, flags, checks and help. Loading it loads no target: each target's implementation, and the optional
 * packages it needs, are imported only when its `create` runs.
 */

import { displayUrl } from '@cursor-stream/core/text';
import type { ExportWarningListener, LogExporter } from './log-exporter.ts';
import { DUCKDB_PEERS, OTLP_ENDPOINT_PEERS, OTLP_PEERS } from './optional-peers.ts';

/** A flag of the export targets, declared once however many targets take it. */
export interface ExportFlag {
  /** The flag as a command line declares it, e.g. `-o, --output <file>`; its long name, camel-cased, is its key. */
  readonly spec: string;
  /** How messages name it. */
  readonly name: string;
  /** What follows it: a file, a URL (checked to be http(s) and to hold no password), or nothing (a switch). */
  readonly takes: 'file' | 'url' | 'nothing';
}

/** Every flag a target takes, in the order help lists them. */
export const EXPORT_FLAGS = {
  output: { spec: '-o, --output <file>', name: '-o', takes: 'file' },
  endpoint: { spec: '--endpoint <url>', name: '--endpoint', takes: 'url' },
  url: { spec: '--url <url>', name: '--url', takes: 'url' },
  includeContent: { spec: '--include-content', name: '--include-content', takes: 'nothing' },
} as const satisfies Record<string, ExportFlag>;

/** The key of a flag in {@link EXPORT_FLAGS}. */
export type ExportFlagName = keyof typeof EXPORT_FLAGS;

type SwitchName = {
  [Name in ExportFlagName]: (typeof EXPORT_FLAGS)[Name]['takes'] extends 'nothing' ? Name : never;
}[ExportFlagName];

/** The flags given: a value for a flag that takes one, `true` for a switch. */
export type ExportFlagValues = { [Name in Exclude<ExportFlagName, SwitchName>]?: string } & {
  [Name in SwitchName]?: boolean;
};

/** Why flags do not fit a target; `flag` is the flag at fault, as messages name it. */
export interface ExportFlagError {
  readonly code:
    | 'flag-not-for-target'
    | 'flags-conflict'
    | 'flag-missing'
    | 'invalid-url'
    | 'credentials-in-url';
  readonly flag: string;
  /** One line, lower-case, no trailing period. */
  readonly message: string;
}

/** The flags, checked, or why they do not fit. */
export type ExportFlagCheck<Flags = ExportFlagValues> =
  | { ok: true; value: Flags }
  | { ok: false; error: ExportFlagError };

/** What a target's `create` is given besides its flags. */
export interface ExportTargetEnv {
  /** Environment variables: credentials and limits are read from here, never from flags. */
  readonly variables: Readonly<Record<string, string | undefined>>;
  /** Hears of each value changed to fit or left out. */
  readonly onWarning: ExportWarningListener;
  /**
   * Opens line output to the file `path` names, or to standard output for `undefined` or `-`; the caller closes it
   * after the exporter.
   */
  openLines(path: string | undefined): (line: string) => Promise<void>;
}

/** One export target. */
export interface ExportTarget {
  /** The value of `--format`. */
  readonly name: string;
  /** What it exports to, as a list in a sentence names it. */
  readonly label: string;
  /** Its lines in help's list of formats: what it writes, where, and what it reads from the environment. */
  readonly help: readonly [string, ...string[]];
  /** The flags it takes, each with its help for this target. */
  readonly flags: { readonly [Name in ExportFlagName]?: string };
  /** The optional packages `create` may load. */
  readonly peers: readonly string[];
  /** Its own rules for flags it takes; flags it does not take, and URLs, are checked by {@link checkExportFlags}. */
  check(flags: ExportFlagValues): ExportFlagCheck;
  /** Where the export goes, for messages. */
  destination(flags: ExportFlagValues): string;
  /** Makes the exporter, loading its implementation. Call with checked flags. */
  create(flags: ExportFlagValues, env: ExportTargetEnv): Promise<LogExporter>;
}

function flagError(
  code: ExportFlagError['code'],
  flag: string,
  message: string,
): { ok: false; error: ExportFlagError } {
  return { ok: false, error: { code, flag, message } };
}

/**
 * The attribute length limit the OpenTelemetry SDKs read from the environment: the span one, else the general one.
 * A value that is not a whole number of one or more is passed over, as the SDKs do.
 */
function attributeValueLengthLimit(variables: ExportTargetEnv['variables']): number | undefined {
  for (const name of ['OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT', 'OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT']) {
    const value = variables[name]?.trim();
    if (value !== undefined && /^\d{1,9}$/.test(value) && Number(value) > 0) return Number(value);
  }
  return undefined;
}

/** How messages name `-o`'s file: `-` (or none) is standard output. */
function outputName(output: string | undefined): string {
  return output === undefined || output === '-' ? '<stdout>' : output;
}

/** The export targets, in the order `--format` lists them. */
export const EXPORT_TARGETS = [
  {
    name: 'otlp',
    label: 'OpenTelemetry',
    help: [
      'OpenTelemetry traces (GenAI semantic conventions): OTLP JSON lines to -o FILE',
      '(default: standard output), or OTLP/HTTP to --endpoint URL; without -o or --endpoint,',
      'to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT plus /v1/traces, when set',
    ],
    flags: {
      output: 'the OTLP JSON lines file (- for standard output)',
      endpoint: 'send OTLP/HTTP to this traces URL (e.g. http://127.0.0.1:4318/v1/traces)',
      includeContent: 'put tool arguments and results in the traces (they may hold secrets)',
    },
    peers: [...OTLP_PEERS, ...OTLP_ENDPOINT_PEERS],
    check(flags) {
      if (flags.endpoint !== undefined && flags.output !== undefined) {
        return flagError(
          'flags-conflict',
          '-o',
          '--format otlp writes to -o FILE or to --endpoint URL, not both',
        );
      }
      return { ok: true, value: flags };
    },
    destination: (flags) =>
      flags.endpoint === undefined ? outputName(flags.output) : displayUrl(flags.endpoint),
    async create(flags, env) {
      const { createOtlpExporter } = await import('./otlp/index.ts');
      const limit = attributeValueLengthLimit(env.variables);
      return createOtlpExporter({
        target:
          flags.endpoint === undefined
            ? { kind: 'json-lines', writeLine: env.openLines(flags.output) }
            : { kind: 'endpoint', url: flags.endpoint },
        includeContent: flags.includeContent === true,
        onWarning: env.onWarning,
        ...(limit === undefined ? {} : { attributeValueLengthLimit: limit }),
      });
    },
  },
  {
    name: 'duckdb',
    label: 'DuckDB',
    help: ['the tables sessions, tool_calls and events in the DuckDB file -o FILE'],
    flags: { output: 'the DuckDB file' },
    peers: [...DUCKDB_PEERS],
    check(flags) {
      if (flags.output === undefined)
        return flagError('flag-missing', '-o', '--format duckdb needs -o FILE.duckdb');
      return { ok: true, value: flags };
    },
    destination: (flags) => outputName(flags.output),
    async create(flags, env) {
      const { createDuckDbExporter } = await import('./duckdb/index.ts');
      return createDuckDbExporter({ path: flags.output ?? '', onWarning: env.onWarning });
    },
  },
  {
    name: 'clickhouse',
    label: 'ClickHouse',
    help: [
      "the same tables through ClickHouse's HTTP interface at --url URL",
      '(credentials from CLICKHOUSE_USER and CLICKHOUSE_PASSWORD)',
    ],
    flags: { url: "ClickHouse's HTTP interface (e.g. http://127.0.0.1:8123/)" },
    // Its client is the HTTP interface through fetch: nothing to install.
    peers: [],
    check(flags) {
      if (flags.output !== undefined)
        return flagError('flags-conflict', '-o', '--format clickhouse takes --url, not -o');
      if (flags.url === undefined)
        return flagError('flag-missing', '--url', '--format clickhouse needs --url URL');
      return { ok: true, value: flags };
    },
    destination: (flags) => flags.url ?? '',
    async create(flags, env) {
      const { createClickHouseExporter } = await import('./clickhouse/index.ts');
      const credentials: { user?: string; password?: string } = {};
      const { CLICKHOUSE_USER, CLICKHOUSE_PASSWORD } = env.variables;
      if (CLICKHOUSE_USER !== undefined) credentials.user = CLICKHOUSE_USER;
      if (CLICKHOUSE_PASSWORD !== undefined) credentials.password = CLICKHOUSE_PASSWORD;
      return createClickHouseExporter({ url: flags.url ?? '', ...credentials, onWarning: env.onWarning });
    },
  },
] as const satisfies readonly ExportTarget[];

/** A value of `--format`. */
export type ExportTargetName = (typeof EXPORT_TARGETS)[number]['name'];

/** The flags of an export, with its target. */
export type ExportTargetOptions = { format: ExportTargetName } & ExportFlagValues;

/** The target named `name`. */
export function exportTarget(name: ExportTargetName): ExportTarget {
  // The name is one of theirs by its type.
  return EXPORT_TARGETS.find((target) => target.name === name) as ExportTarget;
}

/** The targets that take `flag`, in registry order. */
export function targetsTaking(flag: ExportFlagName): readonly ExportTarget[] {
  return EXPORT_TARGETS.filter((target: ExportTarget) => target.flags[flag] !== undefined);
}

function given(flags: ExportFlagValues, flag: ExportFlagName): boolean {
  const value = flags[flag];
  return value !== undefined && value !== false;
}

function httpUrlError(flag: string, url: string): { ok: false; error: ExportFlagError } | undefined {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    return flagError('invalid-url', flag, `not an http(s) URL: ${url}`);
  }
  // A password in a URL ends up in shell history and process lists; so does a token given as its user name
  // (`https://glc_…@host`), which an HTTP client sends as Basic credentials.
  const parsed = new URL(url);
  if (parsed.username !== '' || parsed.password !== '' || parsed.searchParams.has('password')) {
    return flagError('credentials-in-url', flag, 'give credentials in the environment, not in the URL');
  }
  return undefined;
}

/**
 * Checks the flags of an export: first a flag only another target takes, then the target's own rules, then a flag
 * several other targets take, then the URLs. The first misuse found is the error.
 */
export function checkExportFlags(options: ExportTargetOptions): ExportFlagCheck<ExportTargetOptions> {
  const { format, ...flags } = options;
  const target = exportTarget(format);
  const foreign = (Object.keys(EXPORT_FLAGS) as ExportFlagName[]).filter(
    (flag) => target.flags[flag] === undefined && given(flags, flag),
  );
  const ownedBy = (flag: ExportFlagName) =>
    targetsTaking(flag)
      .map((other) => other.name)
      .join(' or ');
  for (const other of EXPORT_TARGETS as readonly ExportTarget[]) {
    for (const flag of Object.keys(other.flags) as ExportFlagName[]) {
      if (foreign.includes(flag) && targetsTaking(flag).length === 1) {
        const { name } = EXPORT_FLAGS[flag];
        return flagError('flag-not-for-target', name, `${name} is for --format ${other.name}`);
      }
    }
  }
  const own = target.check(flags);
  if (!own.ok) return own;
  const [shared] = foreign;
  if (shared !== undefined) {
    const { name } = EXPORT_FLAGS[shared];
    return flagError('flag-not-for-target', name, `${name} is for --format ${ownedBy(shared)}`);
  }
  for (const flag of Object.keys(target.flags) as ExportFlagName[]) {
    const value = flags[flag];
    const error =
      EXPORT_FLAGS[flag].takes === 'url' && typeof value === 'string'
        ? httpUrlError(EXPORT_FLAGS[flag].name, value)
        : undefined;
    if (error !== undefined) return error;
  }
  return { ok: true, value: options };
}
