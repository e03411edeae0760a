/**
 * The standard OpenTelemetry variables the gateway reads (pure; gateway-config.ts calls it once):
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the traces URL as is), else `OTEL_EXPORTER_OTLP_ENDPOINT`
 * (a base URL, `/v1/traces` added), `OTEL_TRACES_SAMPLER` with `OTEL_TRACES_SAMPLER_ARG` (the
 * sampler is always parent-based: `always_on`/`parentbased_always_on` = 1, `always_off`/
 * `parentbased_always_off` = 0, `traceidratio`/`parentbased_traceidratio` = the argument, 1 without
 * one), `OTEL_EXPORTER_OTLP_HEADERS` / `OTEL_EXPORTER_OTLP_TRACES_HEADERS` (`name=value` pairs,
 * URL-encoded; sent with every export, never logged) and `OTEL_SERVICE_NAME`.
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` turn tracing off whatever endpoint is set;
 * with tracing on, `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` / `OTEL_EXPORTER_OTLP_PROTOCOL` must be
 * `http/protobuf` (the one protocol the exporter speaks) and `OTEL_TRACES_EXPORTER` `otlp`.
 */
import { z } from 'zod';

/** What the exporter sends besides the spans. */
export interface OtlpExportSettings {
  /** `service.name` of the gateway's resource. */
  serviceName: string;
  /** Headers sent with every export (a collector's token); values never logged. */
  headers: Readonly<Record<string, string>>;
  /**
   * The endpoint came from `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`: a whole URL, used as is (any
   * other endpoint is a base URL, `/v1/traces` added).
   */
  wholeTracesUrl: boolean;
}

export const DEFAULT_OTLP_EXPORT: OtlpExportSettings = Object.freeze({
  serviceName: 'tollgate-gateway',
  headers: Object.freeze({}),
  wholeTracesUrl: false,
});

type Environment = Readonly<Record<string, string | undefined>>;

const TRACES_PATH = '/v1/traces';

function present(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text === undefined || text === '' ? undefined : text;
}

/** The traces URL of an endpoint: `/v1/traces` added unless it ends with it already. */
export function tracesUrl(endpoint: string): string {
  const base = endpoint.replace(/\/+$/, '');
  return base.endsWith(TRACES_PATH) ? base : `${base}${TRACES_PATH}`;
}

const SAMPLERS: Record<string, 'on' | 'off' | 'ratio'> = {
  always_on: 'on',
  parentbased_always_on: 'on',
  always_off: 'off',
  parentbased_always_off: 'off',
  traceidratio: 'ratio',
  parentbased_traceidratio: 'ratio',
};

function samplerRatio(environment: Environment): string | undefined {
  const name = present(environment.OTEL_TRACES_SAMPLER)?.toLowerCase();
  if (name === undefined) return undefined;
  const kind = SAMPLERS[name];
  if (kind === undefined) {
    throw new Error(
      `invalid gateway configuration: OTEL_TRACES_SAMPLER '${name}' is not one of ${Object.keys(SAMPLERS).join(', ')}`,
    );
  }
  if (kind === 'on') return '1';
  if (kind === 'off') return '0';
  return present(environment.OTEL_TRACES_SAMPLER_ARG) ?? '1';
}

/** The endpoint and ratio the standard variables give, as setting strings (validated later). */
export function otlpSettingsFromEnvironment(environment: Environment): {
  otlpEndpoint: string | undefined;
  traceSampleRatio: string | undefined;
} {
  const traces = present(environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const base = present(environment.OTEL_EXPORTER_OTLP_ENDPOINT);
  return {
    // The traces variable is a whole URL (`wholeTracesUrl`), the general one a base.
    otlpEndpoint: traces ?? base,
    traceSampleRatio: samplerRatio(environment),
  };
}

/**
 * Whether the standard switches turn tracing off: `OTEL_SDK_DISABLED=true` or
 * `OTEL_TRACES_EXPORTER=none` (an endpoint given as well is then not used).
 */
export function tracingSwitchedOff(environment: Environment): boolean {
  return (
    present(environment.OTEL_SDK_DISABLED)?.toLowerCase() === 'true' ||
    present(environment.OTEL_TRACES_EXPORTER)?.toLowerCase() === 'none'
  );
}

const EXPORT_PROTOCOL = 'http/protobuf';

/**
 * Refuses, with tracing on, the standard settings the exporter cannot follow: a protocol other than
 * `http/protobuf` (`grpc`, `http/json`: every export would fail) and an exporter other than `otlp`.
 */
export function checkOtlpExporter(environment: Environment): void {
  for (const variable of [
    'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
    'OTEL_EXPORTER_OTLP_PROTOCOL',
  ] as const) {
    const protocol = present(environment[variable]);
    if (protocol === undefined) continue;
    if (protocol.toLowerCase() !== EXPORT_PROTOCOL) {
      throw new Error(
        `invalid gateway configuration: ${variable} '${protocol}' is not supported: the gateway exports traces over OTLP/HTTP with protobuf only (${EXPORT_PROTOCOL}; the collector's port 4318)`,
      );
    }
    // The traces variable, when set, is the one the exporter follows.
    break;
  }
  const exporters = present(environment.OTEL_TRACES_EXPORTER);
  if (exporters !== undefined && exporters.toLowerCase() !== 'otlp') {
    throw new Error(
      `invalid gateway configuration: OTEL_TRACES_EXPORTER '${exporters}' is not supported: otlp, or none to turn tracing off`,
    );
  }
}

/** Percent-decoded, or null when the encoding is broken. */
function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text.trim());
  } catch {
    return null;
  }
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

const headerList = z
  .string()
  .transform((text, context) => {
    const headers: Record<string, string> = {};
    for (const pair of text.split(',')) {
      if (pair.trim() === '') continue;
      const at = pair.indexOf('=');
      const name = at < 0 ? null : decoded(pair.slice(0, at))?.toLowerCase();
      const value = at < 0 ? null : decoded(pair.slice(at + 1));
      if (name == null || value === null || !HEADER_NAME.test(name)) {
        // The value may be a secret: the message never quotes it.
        context.addIssue({ code: 'custom', message: 'a header is not name=value' });
        return z.NEVER;
      }
      headers[name] = value;
    }
    return headers;
  })
  .optional();

/** The headers of one variable; a broken one is named in the error, its value never quoted. */
function headersOf(
  environment: Environment,
  variable: 'OTEL_EXPORTER_OTLP_HEADERS' | 'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
): Record<string, string> | undefined {
  const parsed = headerList.safeParse(present(environment[variable]));
  if (!parsed.success) {
    throw new Error(`invalid gateway configuration: ${variable}: a header is not name=value`);
  }
  return parsed.data;
}

/** Whether the endpoint in use is `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`'s (no flag or TOLLGATE_*). */
function usesTracesVariable(environment: Environment, flagGiven: boolean): boolean {
  return (
    !flagGiven &&
    present(environment.TOLLGATE_OTLP_ENDPOINT) === undefined &&
    present(environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) !== undefined
  );
}

/** The exporter's headers and service name, from the environment. */
export function parseOtlpExport(
  environment: Environment,
  options: { endpointFlagGiven: boolean } = { endpointFlagGiven: false },
): OtlpExportSettings {
  const general = headersOf(environment, 'OTEL_EXPORTER_OTLP_HEADERS');
  const traces = headersOf(environment, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS');
  return Object.freeze({
    serviceName: present(environment.OTEL_SERVICE_NAME) ?? DEFAULT_OTLP_EXPORT.serviceName,
    headers: Object.freeze({ ...general, ...traces }),
    wholeTracesUrl: usesTracesVariable(environment, options.endpointFlagGiven),
  });
}
