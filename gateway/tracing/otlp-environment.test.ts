import { describe, expect, it } from 'vitest';
import { parseGatewaySettings } from '../gateway-config.js';
import { parseOtlpExport, tracesUrl } from './otlp-environment.js';

describe('the tracing settings', () => {
  it('are off by default: no endpoint, every new trace sampled once on', () => {
    const settings = parseGatewaySettings([], {});
    expect(settings.otlpEndpoint).toBeUndefined();
    expect(settings.traceSampleRatio).toBe(1);
    expect(settings.traceQueueSize).toBe(2048);
    expect(settings.otlpExport).toEqual({
      serviceName: 'tollgate-gateway',
      headers: {},
      wholeTracesUrl: false,
    });
  });

  it('take the flag over TOLLGATE_* over the traces variable over the general one', () => {
    const environment = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://general:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/v1/traces',
      TOLLGATE_OTLP_ENDPOINT: 'http://tollgate:4318',
    };
    expect(
      parseGatewaySettings(['--otlp-endpoint', 'http://flag:4318'], environment).otlpEndpoint,
    ).toBe('http://flag:4318');
    expect(parseGatewaySettings([], environment).otlpEndpoint).toBe('http://tollgate:4318');
    const standard = { ...environment, TOLLGATE_OTLP_ENDPOINT: undefined };
    expect(parseGatewaySettings([], standard).otlpEndpoint).toBe('http://traces:4318/v1/traces');
    // The traces variable is a whole URL, used as is; the others are bases.
    const custom = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/custom/path' };
    expect(parseGatewaySettings([], custom).otlpExport.wholeTracesUrl).toBe(true);
    expect(
      parseGatewaySettings(['--otlp-endpoint', 'http://flag:4318'], custom).otlpExport
        .wholeTracesUrl,
    ).toBe(false);
    expect(parseGatewaySettings([], environment).otlpExport.wholeTracesUrl).toBe(false);
    expect(
      parseGatewaySettings([], { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://general:4318' }).otlpEndpoint,
    ).toBe('http://general:4318');
  });

  it('add /v1/traces to a base URL only', () => {
    expect(tracesUrl('http://tempo:4318')).toBe('http://tempo:4318/v1/traces');
    expect(tracesUrl('http://tempo:4318/')).toBe('http://tempo:4318/v1/traces');
    expect(tracesUrl('http://tempo:4318/v1/traces')).toBe('http://tempo:4318/v1/traces');
  });

  it('read the sampler variables, always parent-based', () => {
    const ratio = (environment: Record<string, string>, args: string[] = []) =>
      parseGatewaySettings(args, environment).traceSampleRatio;
    expect(
      ratio({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }),
    ).toBe(0.25);
    expect(ratio({ OTEL_TRACES_SAMPLER: 'traceidratio' })).toBe(1);
    expect(ratio({ OTEL_TRACES_SAMPLER: 'always_off' })).toBe(0);
    expect(ratio({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' })).toBe(1);
    expect(ratio({ OTEL_TRACES_SAMPLER: 'always_off', TOLLGATE_TRACE_SAMPLE_RATIO: '0.5' })).toBe(
      0.5,
    );
    expect(ratio({ TOLLGATE_TRACE_SAMPLE_RATIO: '0.5' }, ['--trace-sample-ratio', '0.1'])).toBe(
      0.1,
    );
    expect(() => ratio({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(() => ratio({}, ['--trace-sample-ratio', '1.5'])).toThrow(
      /invalid gateway configuration/,
    );
  });

  it('refuse an endpoint that is not an http(s) URL', () => {
    expect(() => parseGatewaySettings(['--otlp-endpoint', 'tempo:4318'], {})).toThrow(
      /otlpEndpoint/,
    );
  });

  it('read the export headers and service name, and never quote a broken header', () => {
    expect(
      parseOtlpExport({
        OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20secret-one, x-scope-orgid=tenant',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-scope-orgid=traces',
        OTEL_SERVICE_NAME: 'gateway-eu',
      }),
    ).toEqual({
      serviceName: 'gateway-eu',
      headers: { authorization: 'Bearer secret-one', 'x-scope-orgid': 'traces' },
      wholeTracesUrl: false,
    });
    for (const broken of ['secret-two', 'name=%E0%A4%A', '=secret-three']) {
      expect(() => parseOtlpExport({ OTEL_EXPORTER_OTLP_HEADERS: broken })).toThrow(
        expect.objectContaining({ message: expect.not.stringContaining('secret') as unknown }),
      );
    }
  });
});
