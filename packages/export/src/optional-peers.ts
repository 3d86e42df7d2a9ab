/**
 * The optional peer dependencies each export target loads when it runs, named once: the targets declare them (so
 * that a package's `peerDependencies` and a bundle's `external` list can be checked against them), and the
 * implementations name them when they are missing.
 */

/** What `otlp` loads for OTLP JSON lines. */
export const OTLP_PEERS = [
  '@opentelemetry/api',
  '@opentelemetry/resources',
  '@opentelemetry/otlp-transformer',
] as const;

/** What `otlp` loads besides {@link OTLP_PEERS} to send to an endpoint. */
export const OTLP_ENDPOINT_PEERS = ['@opentelemetry/exporter-trace-otlp-http'] as const;

/** What `duckdb` loads. */
export const DUCKDB_PEERS = ['@duckdb/node-api'] as const;
