/**
 * Test support: the Helm chart through the real `helm` binary: `helm lint --strict` and
 * `helm template` (with the CRDs) for a values file, the output parsed into objects.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const CHART = fileURLToPath(new URL('../../../charts/tollgate', import.meta.url));
export const CHART_VALUES = {
  default: undefined,
  production: `${CHART}/ci/production-values.yaml`,
  gatewayApi: `${CHART}/ci/gateway-api-values.yaml`,
} as const;
export type ValuesName = keyof typeof CHART_VALUES;
export const RELEASE = { name: 'tollgate', namespace: 'tollgate-system' } as const;

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function helm(args: readonly string[]): Promise<HelmResult> {
  return new Promise((resolve) => {
    execFile('helm', args, { timeout: 60_000, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

function valuesArgs(values: ValuesName, sets: readonly string[]): string[] {
  const file = CHART_VALUES[values];
  return [...(file === undefined ? [] : ['-f', file]), ...sets.flatMap((set) => ['--set', set])];
}

export function lintChart(values: ValuesName): Promise<HelmResult> {
  return helm([
    'lint',
    '--strict',
    CHART,
    '--namespace',
    RELEASE.namespace,
    ...valuesArgs(values, []),
  ]);
}

/** `helm template` with the CRDs; throws with helm's message when rendering fails. */
export async function renderChart(
  values: ValuesName,
  sets: readonly string[] = [],
): Promise<KubernetesObject[]> {
  const result = await templateChart(values, sets);
  if (result.code !== 0) throw new Error(`helm template failed: ${result.stderr}`);
  return parseObjects(result.stdout);
}

export function templateChart(
  values: ValuesName,
  sets: readonly string[] = [],
): Promise<HelmResult> {
  return helm([
    'template',
    RELEASE.name,
    CHART,
    '--namespace',
    RELEASE.namespace,
    '--include-crds',
    ...valuesArgs(values, sets),
  ]);
}

export function parseObjects(text: string): KubernetesObject[] {
  const objects: KubernetesObject[] = [];
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0) throw new Error(`invalid YAML: ${document.errors[0]?.message}`);
    const value: unknown = document.toJS();
    if (value === null || value === undefined) continue;
    objects.push(value as KubernetesObject);
  }
  return objects;
}

export function findObject(
  objects: readonly KubernetesObject[],
  kind: string,
  name: string,
): KubernetesObject {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (found === undefined) throw new Error(`no ${kind} ${name} rendered`);
  return found;
}
