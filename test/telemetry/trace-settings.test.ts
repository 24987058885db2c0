import { OtelSettingError } from '../../src/telemetry/metrics-settings';
import { CAPTURE_CONTENT_VARIABLE, readTraceSettings } from '../../src/telemetry/trace-settings';
import { describeTracing } from '../../src/telemetry/tracing';

describe('readTraceSettings (the OTEL_* variables)', () => {
  it('is off when no variable asks, when asked for none, and when the SDK is disabled', () => {
    expect(readTraceSettings({})).toEqual({ exporter: 'none' });
    expect(readTraceSettings({ OTEL_SERVICE_NAME: 'host', [CAPTURE_CONTENT_VARIABLE]: 'true' })).toEqual({ exporter: 'none' });
    expect(readTraceSettings({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual({ exporter: 'none' });
    expect(readTraceSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'TRUE' })).toEqual({ exporter: 'none' });
    // Metrics alone turn no traces on.
    expect(readTraceSettings({ OTEL_METRICS_EXPORTER: 'prometheus' })).toEqual({ exporter: 'none' });
  });

  it('otlp: an endpoint turns it on; the general endpoint is a base, the traces one is as is; headers merged, never shown', () => {
    expect(readTraceSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.example:4318/otel/' })).toEqual({
      exporter: 'otlp',
      url: 'https://collector.example:4318/otel/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
      serviceName: undefined,
      attributes: {},
      sampler: { kind: 'parentbased_always_on' },
      captureContent: false,
    });
    expect(readTraceSettings({ OTEL_TRACES_EXPORTER: 'otlp' })).toMatchObject({ url: 'http://localhost:4318/v1/traces' });
    expect(readTraceSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://tempo:4318/custom', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://other:4318' })).toMatchObject({ url: 'http://tempo:4318/custom' });
    expect(readTraceSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toMatchObject({ url: 'http://localhost:4317', protocol: 'grpc' });
    expect(readTraceSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' })).toMatchObject({ protocol: 'http/json' });
    const settings = readTraceSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://user:pw@c:4318?token=t',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-honeycomb-team=KEY1,x-a=1',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-a=2',
      OTEL_SERVICE_NAME: 'host',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod',
    });
    expect(settings).toMatchObject({ headers: { 'x-honeycomb-team': 'KEY1', 'x-a': '2' }, serviceName: 'host', attributes: { 'deployment.environment': 'prod' } });
    const line = describeTracing(settings);
    expect(line).toBe('Traces: OTLP http/protobuf to http://c:4318/v1/traces (sampler parentbased_always_on, no content, 2 headers (values not shown))');
    for (const secret of ['KEY1', 'pw', 'token']) expect(line).not.toContain(secret);
  });

  it('console, the samplers and content capture', () => {
    expect(readTraceSettings({ OTEL_TRACES_EXPORTER: 'console' })).toMatchObject({ exporter: 'console', sampler: { kind: 'parentbased_always_on' } });
    expect(readTraceSettings({ OTEL_TRACES_EXPORTER: 'console', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' })).toMatchObject({
      sampler: { kind: 'parentbased_traceidratio', ratio: 0.25 },
    });
    expect(readTraceSettings({ OTEL_TRACES_EXPORTER: 'console', OTEL_TRACES_SAMPLER: 'traceidratio' })).toMatchObject({ sampler: { kind: 'traceidratio', ratio: 1 } });
    expect(readTraceSettings({ OTEL_TRACES_EXPORTER: 'console', OTEL_TRACES_SAMPLER: 'ALWAYS_OFF' })).toMatchObject({ sampler: { kind: 'always_off' } });
    const captured = readTraceSettings({ OTEL_TRACES_EXPORTER: 'console', [CAPTURE_CONTENT_VARIABLE]: 'true' });
    expect(captured).toMatchObject({ captureContent: true });
    expect(describeTracing(captured)).toBe('Traces: printed on stdout (sampler parentbased_always_on, content captured)');
    expect(describeTracing({ exporter: 'none' })).toMatch(/^Traces: off/);
  });

  it('refuses what it cannot honour, naming the variable', () => {
    expect(() => readTraceSettings({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow('OTEL_TRACES_EXPORTER: "zipkin" is not supported here (otlp, console or none)');
    expect(() => readTraceSettings({ OTEL_TRACES_EXPORTER: 'otlp,console' })).toThrow('OTEL_TRACES_EXPORTER: choose one of otlp and console');
    expect(() => readTraceSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'thrift' })).toThrow(
      'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "thrift" is not supported here (http/protobuf, http/json or grpc)',
    );
    expect(() => readTraceSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'not a url' })).toThrow(OtelSettingError);
    expect(() => readTraceSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/^OTEL_TRACES_SAMPLER: "sometimes" is not supported here/);
    expect(() => readTraceSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(
      'OTEL_TRACES_SAMPLER_ARG: must be a ratio between 0 and 1, got "2"',
    );
    expect(() => readTraceSettings({ OTEL_TRACES_EXPORTER: 'otlp', [CAPTURE_CONTENT_VARIABLE]: 'yes' })).toThrow(`${CAPTURE_CONTENT_VARIABLE}: must be true or false, got "yes"`);
    // A secret header list's bad entry is not quoted back.
    expect(() => readTraceSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'sk-live-123' })).toThrow('OTEL_EXPORTER_OTLP_TRACES_HEADERS: an entry is not key=value');
  });
});
