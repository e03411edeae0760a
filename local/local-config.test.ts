import { describe, expect, it } from 'vitest';
import { parseLocalConfig } from './local-config.js';

describe('parseLocalConfig', () => {
  it('defaults to ./.tollgate, 127.0.0.1, 8080 and the next ports for the other parts', () => {
    expect(parseLocalConfig([], {})).toMatchObject({
      dataDirectory: './.tollgate',
      host: '127.0.0.1',
      port: 8080,
      apiPort: 8081,
      metricsPort: 8082,
      operatorMetricsPort: 8083,
    });
    expect(parseLocalConfig([], {}).redisUrl).toBeUndefined();
  });

  it('reads the environment, and flags win over it', () => {
    const environment = {
      TOLLGATE_DATA_DIR: '/env/data',
      TOLLGATE_PORT: '9000',
      TOLLGATE_API_PORT: '7000',
      TOLLGATE_HOST: '127.0.0.2',
      REDIS_URL: 'redis://127.0.0.1:7777',
    };
    expect(parseLocalConfig([], environment)).toMatchObject({
      dataDirectory: '/env/data',
      host: '127.0.0.2',
      port: 9000,
      apiPort: 7000,
      metricsPort: 9002,
      redisUrl: 'redis://127.0.0.1:7777',
    });
    expect(parseLocalConfig(['--data', '/flag', '--port', '9100'], environment)).toMatchObject({
      dataDirectory: '/flag',
      port: 9100,
      apiPort: 7000,
    });
    expect(parseLocalConfig(['--port', '9100'], {})).toMatchObject({ apiPort: 9101 });
    expect(parseLocalConfig(['--port', '0'], {})).toMatchObject({ apiPort: 0, metricsPort: 0 });
  });

  it('passes gateway settings from TOLLGATE_* variables through', () => {
    const config = parseLocalConfig([], { TOLLGATE_TRUSTED_PROXIES: '10.0.0.0/8, ::1' });
    expect(config.gateway.trustedProxies).toEqual(['10.0.0.0/8', '::1']);
    expect(() => parseLocalConfig([], { TOLLGATE_TRUSTED_PROXIES: 'nope' })).toThrow(/trusted/);
  });

  it("takes the console's public origins from TOLLGATE_CONSOLE_PUBLIC_ORIGINS", () => {
    expect(parseLocalConfig([], {}).consolePublicOrigins).toEqual([]);
    const config = parseLocalConfig([], {
      TOLLGATE_CONSOLE_PUBLIC_ORIGINS: 'http://192.0.2.10:8084, https://console.lan',
    });
    expect(config.consolePublicOrigins).toEqual(['http://192.0.2.10:8084', 'https://console.lan']);
    expect(() => parseLocalConfig([], { TOLLGATE_CONSOLE_PUBLIC_ORIGINS: 'console.lan' })).toThrow(
      /consolePublicOrigins/,
    );
  });

  it('keeps the ledger in the data folder unless a database URL is given', () => {
    expect(parseLocalConfig([], {})).toMatchObject({ retentionDays: 90 });
    expect(parseLocalConfig([], {}).databaseUrl).toBeUndefined();
    const environment = {
      TOLLGATE_DATABASE_URL: 'postgres://127.0.0.1/env',
      TOLLGATE_RETENTION_DAYS: '30',
    };
    expect(parseLocalConfig([], environment)).toMatchObject({
      databaseUrl: 'postgres://127.0.0.1/env',
      retentionDays: 30,
    });
    expect(
      parseLocalConfig(
        ['--database-url', 'postgres://127.0.0.1/flag', '--retention-days', '7'],
        environment,
      ),
    ).toMatchObject({ databaseUrl: 'postgres://127.0.0.1/flag', retentionDays: 7 });
    expect(() => parseLocalConfig(['--retention-days', '0'], {})).toThrow(/retentionDays/);
  });

  it('refuses bad ports and unknown flags', () => {
    expect(() => parseLocalConfig(['--port', 'eighty'], {})).toThrow();
    expect(() => parseLocalConfig([], { TOLLGATE_API_PORT: '70000' })).toThrow(/apiPort/);
    expect(() => parseLocalConfig(['--nope'], {})).toThrow(/Unknown option/);
  });
});

describe('parseLocalConfig: logging', () => {
  it('takes the log format from --log-format over TOLLGATE_LOG_FORMAT, else leaves it to the terminal', () => {
    expect(parseLocalConfig([], {}).logFormat).toBeUndefined();
    expect(parseLocalConfig([], { TOLLGATE_LOG_FORMAT: '' }).logFormat).toBeUndefined();
    expect(parseLocalConfig([], { TOLLGATE_LOG_FORMAT: 'PRETTY' }).logFormat).toBe('pretty');
    const both = parseLocalConfig(['--log-format', 'json'], { TOLLGATE_LOG_FORMAT: 'pretty' });
    expect(both.logFormat).toBe('json');
    expect(() => parseLocalConfig(['--log-format', 'yaml'], {})).toThrow(/logFormat/);
  });

  it('takes the log level from --log-level over TOLLGATE_LOG_LEVEL', () => {
    expect(parseLocalConfig([], {}).gateway.logLevel).toBe('info');
    expect(parseLocalConfig([], { TOLLGATE_LOG_LEVEL: 'warn' }).gateway.logLevel).toBe('warn');
    const both = parseLocalConfig(['--log-level', 'debug'], { TOLLGATE_LOG_LEVEL: 'warn' });
    expect(both.gateway.logLevel).toBe('debug');
  });

  it("passes the tracing flags on to its gateway, over the gateway's variables", () => {
    expect(parseLocalConfig([], {}).gateway.otlpEndpoint).toBeUndefined();
    const config = parseLocalConfig(
      [
        '--otlp-endpoint',
        'http://127.0.0.1:4318',
        '--trace-sample-ratio=0.5',
        '--trace-parent-sampling',
        'ignore',
      ],
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SERVICE_NAME: 'laptop' },
    );
    expect(config.gateway.otlpEndpoint).toBe('http://127.0.0.1:4318');
    expect(config.gateway.traceSampleRatio).toBe(0.5);
    expect(config.gateway.traceParentSampling).toBe('ignore');
    expect(parseLocalConfig([], {}).gateway.traceParentSampling).toBe('respect');
    expect(config.gateway.otlpExport.serviceName).toBe('laptop');
    expect(
      parseLocalConfig([], { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).gateway
        .otlpEndpoint,
    ).toBe('http://collector:4318');
    expect(() => parseLocalConfig(['--trace-sample-ratio', '2'], {})).toThrow(/traceSampleRatio/);
  });
});
