import { describeMetrics, runtimeMetricsConfig } from '../../src/telemetry/metrics-runtime';
import { readMetricsSettings } from '../../src/telemetry/metrics-settings';

describe('the runtime metrics exporter', () => {
  it('off: no exporter, and the line says how to turn it on', () => {
    expect(runtimeMetricsConfig({ exporter: 'none' })).toBeUndefined();
    expect(describeMetrics({ exporter: 'none' })).toBe('Metrics: off (OTEL_METRICS_EXPORTER=prometheus or otlp turns them on)');
  });

  it('prometheus: the bind address, seconds, the buckets; the service name and attributes as labels of every series', () => {
    const settings = readMetricsSettings({ OTEL_METRICS_EXPORTER: 'prometheus', OTEL_SERVICE_NAME: 'hosts', OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod' });
    const config = runtimeMetricsConfig(settings);
    expect(config).toMatchObject({
      prometheus: { bindAddress: '127.0.0.1:9464', useSecondsForDurations: true },
      globalTags: { service_name: 'hosts', deployment_environment: 'prod' },
      attachServiceName: false,
    });
    expect(config && 'prometheus' in config ? Object.keys(config.prometheus.histogramBucketOverrides ?? {}) : []).toContain('gen_ai_client_token_usage');
    // Without a service name, the runtime's own service_name label stays.
    expect(runtimeMetricsConfig(readMetricsSettings({ OTEL_METRICS_EXPORTER: 'prometheus' }))).toEqual({
      prometheus: expect.objectContaining({ bindAddress: '127.0.0.1:9464' }),
    });
    expect(describeMetrics(settings)).toBe('Metrics: Prometheus endpoint http://127.0.0.1:9464/metrics (Temporal SDK and host metrics)');
  });

  it('otlp: URL, protocol, headers, interval, temporality; the resource as global tags', () => {
    const settings = readMetricsSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://user:pa55@otel.example.com/?api_key=k3y',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20t0ken,x-scope=hosts',
      OTEL_METRIC_EXPORT_INTERVAL: '10000',
      OTEL_SERVICE_NAME: 'hosts',
    });
    expect(runtimeMetricsConfig(settings)).toMatchObject({
      otel: {
        url: 'https://user:pa55@otel.example.com/v1/metrics?api_key=k3y',
        http: true,
        headers: { authorization: 'Bearer t0ken', 'x-scope': 'hosts' },
        metricsExportInterval: 10_000,
        temporality: 'cumulative',
        useSecondsForDurations: true,
        histogramBucketOverrides: expect.objectContaining({ 'gen_ai.client.token.usage': expect.any(Array) }),
      },
      globalTags: { 'service.name': 'hosts' },
    });
    // The line never shows a header value or the URL's credentials and query.
    const line = describeMetrics(settings);
    expect(line).toBe('Metrics: OTLP http/protobuf to https://otel.example.com/v1/metrics every 10 s, 2 headers (values not shown) (Temporal SDK and host metrics)');
    for (const secret of ['t0ken', 'pa55', 'k3y', 'user']) expect(line).not.toContain(secret);
    expect(runtimeMetricsConfig(readMetricsSettings({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }))).toMatchObject({ otel: { url: 'http://localhost:4317', http: false } });
  });
});
