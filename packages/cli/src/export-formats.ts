/** The values of `export --format`, apart from the command's code so that `--help` does not load it. */
export const EXPORT_FORMATS = ['otlp', 'duckdb', 'clickhouse'] as const;

/** A value of `--format`. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
