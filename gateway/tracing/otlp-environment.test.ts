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
    for (const variable of ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS']) {
      for (const broken of ['secret-two', 'name=secret-four%E0%A4%A', '=secret-three']) {
        const environment = {
          OTEL_EXPORTER_OTLP_HEADERS: 'x-scope-orgid=tenant',
          OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-scope-orgid=traces',
          [variable]: broken,
        };
        expect(() => parseOtlpExport(environment)).toThrow(
          expect.objectContaining({
            message: expect.stringMatching(
              new RegExp(`configuration: ${variable}: a header is not name=value$`),
            ) as unknown,
          }),
        );
        expect(() => parseOtlpExport(environment)).toThrow(
          expect.objectContaining({ message: expect.not.stringContaining('secret') as unknown }),
        );
      }
    }
  });

  it('refuse, with tracing on, an export protocol other than http/protobuf, naming the variable', () => {
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    for (const variable of ['OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL']) {
      for (const protocol of ['grpc', 'http/json']) {
        expect(() => parseGatewaySettings([], { ...on, [variable]: protocol })).toThrow(
          new RegExp(`${variable} '${protocol}' is not supported.*http/protobuf`),
        );
      }
      expect(parseGatewaySettings([], { ...on, [variable]: 'http/protobuf' }).otlpEndpoint).toBe(
        'http://collector:4318',
      );
    }
    // The traces variable is the one followed when both are set.
    expect(
      parseGatewaySettings([], {
        ...on,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      }).otlpEndpoint,
    ).toBe('http://collector:4318');
    expect(() =>
      parseGatewaySettings(['--otlp-endpoint', 'http://flag:4318'], {
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc',
      }),
    ).toThrow(/OTEL_EXPORTER_OTLP_TRACES_PROTOCOL 'grpc'/);
    expect(() => parseGatewaySettings([], { ...on, OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(
      /OTEL_TRACES_EXPORTER 'zipkin' is not supported/,
    );
    expect(parseGatewaySettings([], { ...on, OTEL_TRACES_EXPORTER: 'otlp' }).otlpEndpoint).toBe(
      'http://collector:4318',
    );
    // With tracing off the variables are not the gateway's concern.
    expect(
      parseGatewaySettings([], { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).otlpEndpoint,
    ).toBeUndefined();
  });

  it('are off with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, whatever endpoint is set', () => {
    const environment = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      TOLLGATE_OTLP_ENDPOINT: 'http://tollgate:4318',
      // Not followed: tracing is off.
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    };
    const flag = ['--otlp-endpoint', 'http://flag:4318'];
    for (const off of [
      { OTEL_SDK_DISABLED: 'true' },
      { OTEL_SDK_DISABLED: 'TRUE' },
      { OTEL_TRACES_EXPORTER: 'none' },
    ]) {
      expect(parseGatewaySettings([], { ...environment, ...off }).otlpEndpoint).toBeUndefined();
      expect(parseGatewaySettings(flag, { ...environment, ...off }).otlpEndpoint).toBeUndefined();
    }
    const on = { ...environment, OTEL_EXPORTER_OTLP_PROTOCOL: undefined };
    expect(parseGatewaySettings([], { ...on, OTEL_SDK_DISABLED: 'false' }).otlpEndpoint).toBe(
      'http://tollgate:4318',
    );
  });

  it("respect the caller's sampled flag unless told to ignore it", () => {
    expect(parseGatewaySettings([], {}).traceParentSampling).toBe('respect');
    expect(
      parseGatewaySettings([], { TOLLGATE_TRACE_PARENT_SAMPLING: 'ignore' }).traceParentSampling,
    ).toBe('ignore');
    expect(
      parseGatewaySettings(['--trace-parent-sampling', 'respect'], {
        TOLLGATE_TRACE_PARENT_SAMPLING: 'ignore',
      }).traceParentSampling,
    ).toBe('respect');
    expect(() => parseGatewaySettings(['--trace-parent-sampling', 'trust'], {})).toThrow(
      /traceParentSampling/,
    );
  });
});
