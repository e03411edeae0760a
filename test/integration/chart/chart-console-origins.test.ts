/**
 * The console behind the chart's Ingress or HTTPRoute, rendered by the real `helm`: its public
 * origins (for the Origin check) come from the hosts, https where TLS ends in front of it, and
 * then the session cookie is Secure (the console itself only sees http from the proxy). Trusted
 * proxies reach the console when set. Each rendering is read back through the console's own
 * configuration parser.
 */
import { describe, expect, it } from 'vitest';
import { parseConsoleConfig } from '../../../console/server/console-config.js';
import { findObject, renderChart, templateChart, type ValuesName } from './render-chart.js';

interface EnvVar {
  name: string;
  value?: string;
}

async function consoleEnvironment(
  values: ValuesName,
  sets: readonly string[] = [],
): Promise<Record<string, string>> {
  const objects = await renderChart(values, sets);
  const deployment = findObject(objects, 'Deployment', 'tollgate-console') as unknown as {
    spec: { template: { spec: { containers: { name: string; env: EnvVar[] }[] } } };
  };
  const container = deployment.spec.template.spec.containers.find(
    (candidate) => candidate.name === 'console',
  );
  return Object.fromEntries(
    (container?.env ?? [])
      .filter((variable) => variable.value !== undefined)
      .map((variable) => [variable.name, variable.value ?? '']),
  );
}

/** The public origins and cookie setting the chart gave the console. */
function expectConsole(
  environment: Record<string, string>,
  expected: { origins: string; cookieSecure: string },
): void {
  expect(environment.TOLLGATE_CONSOLE_PUBLIC_ORIGINS).toBe(expected.origins);
  expect(environment.TOLLGATE_CONSOLE_COOKIE_SECURE).toBe(expected.cookieSecure);
}

function parsed(environment: Record<string, string>) {
  return parseConsoleConfig([], environment);
}

describe('the console behind the chart', () => {
  it('without Ingress or HTTPRoute: the port-forward address, cookie auto', async () => {
    const environment = await consoleEnvironment('default');
    expectConsole(environment, {
      origins: 'http://127.0.0.1:8084,http://localhost:8084',
      cookieSecure: 'auto',
    });
    expect(environment.TOLLGATE_CONSOLE_TRUSTED_PROXIES).toBeUndefined();
    expect(parsed(environment).cookieSecure).toBe('auto');
  });

  it('behind an Ingress with TLS: https origins and a Secure cookie under auto', async () => {
    const environment = await consoleEnvironment('production', ['console.cookieSecure=auto']);
    expectConsole(environment, { origins: 'https://tollgate.example.com', cookieSecure: 'true' });
    const config = parsed(environment);
    expect(config.publicOrigins).toEqual(['https://tollgate.example.com']);
    expect(config.cookieSecure).toBe(true);
  });

  it('a tls entry without hosts covers every host', async () => {
    const environment = await consoleEnvironment('default', [
      'console.ingress.enabled=true',
      'console.ingress.tls[0].secretName=wildcard-tls',
    ]);
    expectConsole(environment, {
      origins: 'https://tollgate-console.example.com',
      cookieSecure: 'true',
    });
  });

  it('behind an Ingress without TLS, or TLS for some hosts only: cookie auto', async () => {
    const plain = await consoleEnvironment('default', ['console.ingress.enabled=true']);
    expectConsole(plain, { origins: 'http://tollgate-console.example.com', cookieSecure: 'auto' });
    const mixed = await consoleEnvironment('production', [
      'console.cookieSecure=auto',
      'console.ingress.hosts[1].host=plain.example.com',
      'console.ingress.hosts[1].paths[0].path=/',
      'console.ingress.hosts[1].paths[0].pathType=Prefix',
    ]);
    expectConsole(mixed, {
      origins: 'https://tollgate.example.com,http://plain.example.com',
      cookieSecure: 'auto',
    });
  });

  it('behind an HTTPRoute: https unless its listener is plain http', async () => {
    const tls = await consoleEnvironment('gatewayApi');
    expectConsole(tls, { origins: 'https://tollgate.example.com', cookieSecure: 'true' });
    const plain = await consoleEnvironment('gatewayApi', ['console.httpRoute.tls=false']);
    expectConsole(plain, { origins: 'http://tollgate.example.com', cookieSecure: 'auto' });
    const none = await templateChart('gatewayApi', ['console.httpRoute.hostnames=null']);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain('set console.publicOrigins');
  });

  it('takes publicOrigins, trustedProxies and an explicit cookieSecure as given', async () => {
    const environment = await consoleEnvironment('production', [
      'console.publicOrigins[0]=https://console.internal.example',
      'console.trustedProxies[0]=10.42.0.0/16',
      'console.trustedProxies[1]=fd00::/8',
      'console.cookieSecure=false',
    ]);
    expect(environment.TOLLGATE_CONSOLE_PUBLIC_ORIGINS).toBe('https://console.internal.example');
    expect(environment.TOLLGATE_CONSOLE_TRUSTED_PROXIES).toBe('10.42.0.0/16,fd00::/8');
    expect(environment.TOLLGATE_CONSOLE_COOKIE_SECURE).toBe('false');
    const config = parsed(environment);
    expect(config.trustedProxies).toEqual(['10.42.0.0/16', 'fd00::/8']);
    expect(config.cookieSecure).toBe(false);
  });
});
