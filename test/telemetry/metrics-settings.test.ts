import { MetricsSettingError, readMetricsSettings } from '../../src/telemetry/metrics-settings';

describe('readMetricsSettings (the OTEL_* variables)', () => {
  it('is off when no variable asks, and when asked for none or the SDK is disabled', () => {
    expect(readMetricsSettings({})).toEqual({ exporter: 'none' });
    // A service name alone exports nothing.
    expect(readMetricsSettings({ OTEL_SERVICE_NAME: 'host' })).toEqual({ exporter: 'none' });
    expect(readMetricsSettings({ OTEL_METRICS_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual({ exporter: 'none' });
    expect(readMetricsSettings({ OTEL_METRICS_EXPORTER: 'prometheus', OTEL_SDK_DISABLED: 'true' })).toEqual({ exporter: 'none' });
    expect(readMetricsSettings({ OTEL_METRICS_EXPORTER: '  ' })).toEqual({ exporter: 'none' });
  });

  it('prometheus: localhost:9464 by default, the host and port variables, an IPv6 address', () => {
    expect(readMetricsSettings({ OTEL_METRICS_EXPORTER: 'prometheus' })).toEqual({
      exporter: 'prometheus',
      bindAddress: '127.0.0.1:9464',
      intervalMs: 60_000,
      serviceName: undefined,
      attributes: {},
    });
    expect(readMetricsSettings({ OTEL_METRICS_EXPORTER: 'Prometheus', OTEL_EXPORTER_PROMETHEUS_HOST: '0.0.0.0', OTEL_EXPORTER_PROMETHEUS_PORT: '9100' })).toMatchObject({ bindAddress: '0.0.0.0:9100' });
    expect(readMetricsSettings({ OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_HOST: '::' })).toMatchObject({ bindAddress: '[::]:9464' });
    expect(readMetricsSettings({ OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_HOST: '[::1]' })).toMatchObject({ bindAddress: '[::1]:9464' });
  });

  it('refuses a host name to listen on, a port that is not one, and an exporter it lacks, by name', () => {
    expect(() => readMetricsSettings({ OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_HOST: 'metrics.internal' })).toThrow(
      'OTEL_EXPORTER_PROMETHEUS_HOST: must be an IP address to listen on (0.0.0.0 for every interface) or localhost, got "metrics.internal"',
    );
    expect(() => readMetricsSettings({ OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_PORT: '99999' })).toThrow(MetricsSettingError);
    expect(() => readMetricsSettings({ OTEL_METRICS_EXPORTER: 'console' })).toThrow('OTEL_METRICS_EXPORTER: "console" is not supported here (prometheus, otlp or none)');
    // The runtime has one metrics exporter.
    expect(() => readMetricsSettings({ OTEL_METRICS_EXPORTER: 'prometheus,otlp' })).toThrow(/^OTEL_METRICS_EXPORTER: choose one of prometheus and otlp/);
    expect(readMetricsSettings({ OTEL_METRICS_EXPORTER: 'otlp, otlp' })).toMatchObject({ exporter: 'otlp' });
  });

  it('otlp: http/protobuf to localhost:4318/v1/metrics by default; the general endpoint is a base, the metrics one is as is', () => {
    expect(readMetricsSettings({ OTEL_METRICS_EXPORTER: 'otlp' })).toEqual({
      exporter: 'otlp',
      url: 'http://localhost:4318/v1/metrics',
      protocol: 'http/protobuf',
      headers: {},
      temporality: 'cumulative',
      intervalMs: 60_000,
      serviceName: undefined,
      attributes: {},
    });
    expect(readMetricsSettings({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example.com:4318/' })).toMatchObject({ url: 'https://otel.example.com:4318/v1/metrics' });
    expect(
      readMetricsSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example.com', OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://metrics.example.com/otlp/v1/metrics' }),
    ).toMatchObject({ exporter: 'otlp', url: 'https://metrics.example.com/otlp/v1/metrics' });
    expect(readMetricsSettings({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toMatchObject({ protocol: 'grpc', url: 'http://localhost:4317' });
    expect(readMetricsSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'grpc' })).toMatchObject({
      protocol: 'grpc',
      url: 'http://collector:4317',
    });
  });

  it('an OTLP endpoint alone turns otlp on (the specification default), unless the exporter says otherwise', () => {
    expect(readMetricsSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toMatchObject({ exporter: 'otlp', url: 'http://collector:4318/v1/metrics' });
    expect(readMetricsSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_METRICS_EXPORTER: 'prometheus' })).toMatchObject({ exporter: 'prometheus' });
  });

  it('refuses http/json and a URL that is not one, without quoting the URL', () => {
    expect(() => readMetricsSettings({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toThrow(
      'OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" is not supported here (http/protobuf or grpc)',
    );
    const bad = () => readMetricsSettings({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'not a url?token=s3cret' });
    expect(bad).toThrow('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: is not a URL');
    expect(() => readMetricsSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://c' })).toThrow('OTEL_EXPORTER_OTLP_ENDPOINT: the scheme must be http, https, grpc or grpcs, not ftp:');
  });

  it('headers: key=value pairs, percent-decoded, the metrics ones winning; a malformed one is refused without its text', () => {
    const settings = readMetricsSettings({
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20general, x-team = hosts',
      OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'authorization=Bearer%20metrics',
    });
    expect(settings).toMatchObject({ headers: { authorization: 'Bearer metrics', 'x-team': 'hosts' } });
    let error: unknown;
    try {
      readMetricsSettings({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_HEADERS: 'sk-live-secret-token' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(MetricsSettingError);
    expect((error as Error).message).toBe('OTEL_EXPORTER_OTLP_HEADERS: an entry is not key=value');
    expect(() => readMetricsSettings({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_HEADERS: 'a=%E0%A4%A' })).toThrow('OTEL_EXPORTER_OTLP_HEADERS: an entry is not valid percent-encoding');
  });

  it('the service name, resource attributes, export interval and temporality', () => {
    const settings = readMetricsSettings({
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attributes,deployment.environment=prod,team=a%2Cb',
      OTEL_METRIC_EXPORT_INTERVAL: '5000',
      OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: 'Delta',
    });
    expect(settings).toMatchObject({
      serviceName: 'from-attributes',
      attributes: { 'service.name': 'from-attributes', 'deployment.environment': 'prod', team: 'a,b' },
      intervalMs: 5000,
      temporality: 'delta',
    });
    expect(readMetricsSettings({ OTEL_METRICS_EXPORTER: 'prometheus', OTEL_SERVICE_NAME: 'hosts', OTEL_RESOURCE_ATTRIBUTES: 'service.name=other' })).toMatchObject({ serviceName: 'hosts' });
    expect(readMetricsSettings({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: 'lowmemory' })).toMatchObject({ temporality: 'delta' });
    expect(() => readMetricsSettings({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_METRIC_EXPORT_INTERVAL: '1s' })).toThrow(/^OTEL_METRIC_EXPORT_INTERVAL: must be a whole number of milliseconds/);
    expect(() => readMetricsSettings({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_RESOURCE_ATTRIBUTES: 'novalue' })).toThrow('OTEL_RESOURCE_ATTRIBUTES: "novalue" is not key=value');
  });
});
