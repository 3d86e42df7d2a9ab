/**
 * The OTLP/HTTP traces endpoint the OpenTelemetry environment variables name, read as the OpenTelemetry exporter
 * specification says: the traces variable is the URL as it is; the general one is a base URL, to which the traces
 * path `v1/traces` is added. An empty value counts as unset.
 */

/** An endpoint named by the environment, with the variable it came from (for messages). */
export interface OtlpEnvironmentEndpoint {
  readonly url: string;
  readonly variable: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_EXPORTER_OTLP_ENDPOINT';
}

/** The traces endpoint `env` names, the traces variable first; `undefined` when neither is set. */
export function otlpTracesEndpointFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): OtlpEnvironmentEndpoint | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return { url: traces, variable: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' };
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (base)
    return {
      url: `${base.endsWith('/') ? base : `${base}/`}v1/traces`,
      variable: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    };
  return undefined;
}
