/**
 * The chart renders and validates: `helm lint --strict` and `helm template` for the default values,
 * the production-like values (charts/tollgate/ci/production-values.yaml) and the Gateway API
 * values; every rendered object is valid against the Kubernetes schemas (kubernetes-models) and
 * has no field the API does not define; the chart's CRDs and persona roles are exactly what the
 * single sources generate; values.schema.json refuses wrong values.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toCrdYaml } from '../../../crds/crd-yaml.js';
import { renderAllCrds } from '../../../crds/render-crds.js';
import { renderRolesYaml } from '../../../crds/rbac/render-roles-yaml.js';
import {
  CHART,
  lintChart,
  renderChart,
  templateChart,
  type KubernetesObject,
  type ValuesName,
} from './render-chart.js';
import { validateKubernetesObject } from './validate-kubernetes-object.js';

const VALUES: ValuesName[] = ['default', 'production', 'gatewayApi'];

describe.each(VALUES)('with the %s values', (values) => {
  it('passes helm lint --strict', async () => {
    const result = await lintChart(values);
    expect(result.stdout + result.stderr).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(result.code).toBe(0);
  });

  it('renders objects that are valid against the Kubernetes schemas, with no unknown field', async () => {
    const objects = await renderChart(values);
    expect(objects.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const object of objects) {
      for (const problem of await validateKubernetesObject(object)) {
        problems.push(`${object.kind}/${object.metadata.name}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the validation itself', () => {
  const deployment = (): KubernetesObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'x' },
    spec: {
      selector: { matchLabels: { a: 'b' } },
      template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c' }] } },
    },
  });

  it('accepts a valid object', async () => {
    expect(await validateKubernetesObject(deployment())).toEqual([]);
  });

  it('refuses a wrong type, a misspelt field and an unknown kind', async () => {
    const wrong = deployment();
    (wrong.spec as Record<string, unknown>).replicas = 'two';
    expect((await validateKubernetesObject(wrong)).join()).toContain('replicas must be integer');
    const misspelt = deployment();
    const pod = (misspelt.spec as { template: { spec: Record<string, unknown> } }).template.spec;
    pod.securityContex = { runAsNonRoot: true };
    expect(await validateKubernetesObject(misspelt)).toEqual([
      'unknown field .spec.template.spec.securityContex',
    ]);
    expect(
      await validateKubernetesObject({
        apiVersion: 'x.dev/v1',
        kind: 'Thing',
        metadata: { name: 'x' },
      }),
    ).toEqual(['no schema for apiVersion x.dev/v1']);
  });
});

describe('generated copies in the chart', () => {
  it.each(renderAllCrds())('crds/$fileName is the generated CRD', ({ fileName, crd }) => {
    const copy = readFileSync(`${CHART}/crds/${fileName}`, 'utf8');
    expect(copy, 'run `npm run generate:crds` and commit the result').toBe(toCrdYaml(crd));
  });

  it('files/persona-cluster-roles.yaml is the generated persona roles file', () => {
    const copy = readFileSync(`${CHART}/files/persona-cluster-roles.yaml`, 'utf8');
    expect(copy, 'run `npx tsx crds/rbac/generate-roles.ts`').toBe(renderRolesYaml());
  });

  it('renders every CRD and persona ClusterRole', async () => {
    const objects = await renderChart('default');
    const crds = objects.filter((object) => object.kind === 'CustomResourceDefinition');
    expect(crds.map((crd) => crd.metadata.name).sort()).toEqual(
      renderAllCrds()
        .map(({ crd }) => (crd as { metadata: { name: string } }).metadata.name)
        .sort(),
    );
    const roles = objects.filter(
      (object) =>
        object.kind === 'ClusterRole' &&
        object.metadata.labels?.['app.kubernetes.io/component'] === undefined,
    );
    expect(roles.map((role) => role.metadata.name).sort()).toEqual([
      'tollgate-admin',
      'tollgate-capture-reader',
      'tollgate-group-reader',
      'tollgate-key-manager',
      'tollgate-upstream-credentials',
      'tollgate-viewer',
    ]);
  });
});

describe('values.schema.json', () => {
  it.each([
    ['gateway.replicaCount=two', 'replicaCount'],
    ['logLevel=loud', 'logLevel'],
    ['monitoring.prometheusRule.quotaWarningRatio=2', 'quotaWarningRatio'],
    ['gateway.drainTimeoutSeconds=0', 'drainTimeoutSeconds'],
    ['unknownTopLevel=1', 'unknownTopLevel'],
  ])('refuses %s (helm names %s)', async (set, field) => {
    const result = await templateChart('default', [set]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(field);
  });

  it('refuses an external Redis URL and the bundled Redis at once', async () => {
    const result = await templateChart('default', ['redis.url=redis://r:6379']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('redis.bundled.enabled');
  });
});
