import { describe, expect, test } from 'vitest';
import { otlpTracesEndpointFromEnv } from '../src/otlp-endpoint.ts';

describe('otlpTracesEndpointFromEnv', () => {
  test.each([
    ['http://collector:4318', 'http://collector:4318/v1/traces'],
    ['http://collector:4318/', 'http://collector:4318/v1/traces'],
    ['https://example.com/otel/', 'https://example.com/otel/v1/traces'],
    ['https://example.com/otel', 'https://example.com/otel/v1/traces'],
  ])('the general variable %s is a base URL: %s', (value, url) => {
    expect(otlpTracesEndpointFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: value })).toEqual({
      url,
      variable: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    });
  });

  test('the traces variable is the URL as it is, and comes first', () => {
    expect(
      otlpTracesEndpointFromEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://general:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/custom',
      }),
    ).toEqual({ url: 'http://traces:4318/custom', variable: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' });
  });

  test('unset and empty variables name no endpoint', () => {
    expect(otlpTracesEndpointFromEnv({})).toBeUndefined();
    expect(
      otlpTracesEndpointFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' }),
    ).toBeUndefined();
    expect(
      otlpTracesEndpointFromEnv({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://g',
      }),
    ).toEqual({ url: 'http://g/v1/traces', variable: 'OTEL_EXPORTER_OTLP_ENDPOINT' });
  });
});
