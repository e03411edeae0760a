/**
 * The chart configures each component through its real configuration parser: the arguments and
 * environment of every rendered Tollgate container (Secret and field references replaced by
 * plausible values) parse without error, and every variable the chart sets is one the parser reads
 * (changing its value changes the parsed configuration or makes it invalid), so a misspelt name
 * cannot be silently ignored.
 */
import { describe, expect, it } from 'vitest';
import { parseConsoleConfig } from '../../../console/server/console-config.js';
import { parseGatewaySettings } from '../../../gateway/gateway-config.js';
import { parseRecorderConfig } from '../../../ledger/recorder-config.js';
import { parseOperatorSettings } from '../../../operator/operator-config.js';
import { renderChart, type ValuesName } from './render-chart.js';

type Environment = Record<string, string>;
type Parse = (args: readonly string[], environment: Environment) => unknown;

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { key: string }; fieldRef?: { fieldPath: string } };
}
interface Container {
  name: string;
  args: string[];
  env?: EnvVar[];
}

/** Each component's parser, fed the arguments after the subcommand. */
const PARSERS: Record<string, Parse> = {
  gateway: (args, environment) =>
    parseGatewaySettings(
      args.filter((arg, index) => arg !== '--workers' && args[index - 1] !== '--workers'),
      environment,
    ),
  operator: parseOperatorSettings,
  console: parseConsoleConfig,
  recorder: parseRecorderConfig,
};

const SECRET_VALUES: Record<string, string> = {
  url: 'redis://:password@redis.example:6379',
  'client-secret': 'oidc-client-secret',
  headers: 'authorization=Bearer%20collector-token',
};

function resolve(variable: EnvVar): string {
  if (variable.value !== undefined) return variable.value;
  const field = variable.valueFrom?.fieldRef?.fieldPath;
  if (field === 'metadata.namespace') return 'tollgate-system';
  if (field === 'metadata.name') return 'tollgate-recorder-5d9f7-abcde';
  if (variable.name === 'TOLLGATE_DATABASE_URL') return 'postgres://tollgate@db.example/tollgate';
  const key = variable.valueFrom?.secretKeyRef?.key ?? '';
  return SECRET_VALUES[key] ?? 'secret-value';
}

function altered(value: string): string {
  if (/^\d+$/.test(value)) return String(Number(value) + 1);
  if (value === 'true') return 'false';
  if (value === 'false') return 'true';
  return `${value}x`;
}

function outcome(parse: Parse, args: readonly string[], environment: Environment): string {
  try {
    return JSON.stringify(parse(args, environment));
  } catch (error) {
    return `error: ${error instanceof Error ? error.message : String(error)}`;
  }
}

async function containers(values: ValuesName): Promise<Container[]> {
  const objects = await renderChart(values);
  return objects
    .filter((object) => object.kind === 'Deployment')
    .flatMap(
      (object) =>
        (object as unknown as { spec: { template: { spec: { containers: Container[] } } } }).spec
          .template.spec.containers,
    );
}

describe.each(['default', 'production', 'gatewayApi'] as const)('the %s values', (values) => {
  it('give every component a configuration its parser accepts, through variables it reads', async () => {
    const rendered = await containers(values);
    expect(rendered.map((container) => container.name).sort()).toEqual(
      values === 'default'
        ? ['console', 'gateway', 'operator']
        : ['console', 'gateway', 'operator', 'recorder'],
    );
    for (const container of rendered) {
      const [command, ...args] = container.args;
      const parse = PARSERS[command ?? ''];
      if (parse === undefined) throw new Error(`no parser for ${command}`);
      const environment: Environment = Object.fromEntries(
        (container.env ?? []).map((variable) => [variable.name, resolve(variable)]),
      );
      const base = outcome(parse, args, environment);
      expect(base, `${container.name} parses`).not.toMatch(/^error/);
      for (const name of Object.keys(environment)) {
        // Read by Node when the process starts, not by Tollgate's configuration.
        if (name === 'NODE_OPTIONS') continue;
        const changed = { ...environment, [name]: altered(environment[name] ?? '') };
        expect(outcome(parse, args, changed), `${container.name} reads ${name}`).not.toBe(base);
      }
    }
  });
});
