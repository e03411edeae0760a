/**
 * What the rendered workloads promise, read from `helm template`: hardened pods and containers,
 * resources, the component label and the `metrics` port of every Tollgate component, with its
 * PodMonitor and the NetworkPolicy rule that lets the scrapes in, the
 * gateway's readiness on the store and its drain within the grace period, a ServiceAccount token
 * only where the Kubernetes API is called, generated secrets of the right size, and which parts an
 * install gets with the default and the production-like values.
 */
import { describe, expect, it } from 'vitest';
import { GATEWAY_NODE_FLAGS } from '../../../gateway/gateway-node-flags.js';
import { findObject, renderChart, type KubernetesObject } from './render-chart.js';

interface Container {
  name: string;
  ports?: { name: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string } } }[];
  securityContext?: Record<string, unknown>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  readinessProbe?: { httpGet?: { path: string; port: string } };
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
}
interface PodSpec {
  securityContext?: Record<string, unknown>;
  automountServiceAccountToken?: boolean;
  serviceAccountName?: string;
  terminationGracePeriodSeconds?: number;
  containers: Container[];
}
interface Workload extends KubernetesObject {
  spec: {
    replicas?: number;
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  };
}

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet']);
const workloads = (objects: KubernetesObject[]) =>
  objects.filter((object): object is Workload => WORKLOAD_KINDS.has(object.kind));
const env = (container: Container, name: string) =>
  container.env?.find((variable) => variable.name === name);

describe.each(['default', 'production', 'gatewayApi'] as const)('the %s values', (values) => {
  it('harden every pod and container and give each resources', async () => {
    const rendered = workloads(await renderChart(values));
    expect(rendered.length).toBeGreaterThanOrEqual(3);
    for (const workload of rendered) {
      const pod = workload.spec.template.spec;
      expect(pod.securityContext, workload.metadata.name).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      for (const container of pod.containers) {
        expect(container.securityContext, container.name).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        expect(container.resources?.requests?.cpu, container.name).toBeDefined();
        expect(container.resources?.requests?.memory, container.name).toBeDefined();
        expect(container.resources?.limits?.memory, container.name).toBeDefined();
      }
    }
  });

  it('label each component and expose the metrics port the monitors select', async () => {
    const rendered = workloads(await renderChart(values));
    for (const workload of rendered) {
      const component = workload.spec.template.metadata.labels['app.kubernetes.io/component'];
      expect(component, workload.metadata.name).toBeDefined();
      const ports = workload.spec.template.spec.containers.flatMap((each) => each.ports ?? []);
      if (component !== 'redis') {
        expect(
          ports.map((port) => port.name),
          component,
        ).toContain('metrics');
      }
    }
  });

  it('give every Tollgate component a PodMonitor and let the metricsFrom peers scrape it', async () => {
    const objects = await renderChart(values, ['monitoring.podMonitors.enabled=true']);
    const components = workloads(objects)
      .map((workload) => workload.spec.template.metadata.labels['app.kubernetes.io/component'])
      .filter((component) => component !== 'redis')
      .sort();
    expect(components).toEqual(
      values === 'default'
        ? ['console', 'gateway', 'operator']
        : ['console', 'gateway', 'operator', 'recorder'],
    );
    const monitored = objects
      .filter((object) => object.kind === 'PodMonitor')
      .map((object) => {
        const spec = object.spec as {
          selector: { matchLabels: Record<string, string> };
          podMetricsEndpoints: { port: string; relabelings: { replacement?: string }[] }[];
        };
        const component = spec.selector.matchLabels['app.kubernetes.io/component'];
        expect(spec.podMetricsEndpoints.map((endpoint) => endpoint.port)).toEqual(['metrics']);
        expect(spec.podMetricsEndpoints[0]?.relabelings[0]?.replacement).toBe(
          `tollgate-${component ?? ''}`,
        );
        return component;
      });
    expect(monitored.sort()).toEqual(components);
    // The production-like values narrow metricsFrom to the monitoring namespace.
    const metricsFrom =
      values === 'production'
        ? [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]
        : [{ namespaceSelector: {} }];
    for (const component of components) {
      const policy = findObject(objects, 'NetworkPolicy', `tollgate-${component ?? ''}`) as {
        spec: { ingress: { ports: { port: string }[]; from?: unknown[] }[] };
      } & KubernetesObject;
      const scrapes = policy.spec.ingress.find((rule) =>
        rule.ports.some((port) => port.port === 'metrics'),
      );
      expect(scrapes?.from, component).toEqual(metricsFrom);
    }
  });

  it('mount a ServiceAccount token only in the operator and the console', async () => {
    for (const workload of workloads(await renderChart(values))) {
      const component = workload.spec.template.metadata.labels['app.kubernetes.io/component'];
      const wanted = component === 'operator' || component === 'console';
      expect(workload.spec.template.spec.automountServiceAccountToken, component).toBe(wanted);
    }
  });

  it('let the gateway drain within its grace period, ready only while the store answers', async () => {
    const objects = await renderChart(values);
    const gateway = findObject(objects, 'Deployment', 'tollgate-gateway') as Workload;
    const pod = gateway.spec.template.spec;
    const container = pod.containers[0] as Container;
    const drainMs = Number(env(container, 'TOLLGATE_DRAIN_TIMEOUT_MS')?.value);
    const preStop = container.lifecycle?.preStop?.exec?.command ?? [];
    expect(preStop[0]).toBe('sleep');
    const pauseSeconds = Number(preStop[1]);
    expect(drainMs).toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(pauseSeconds + drainMs / 1000);
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
  });

  it('start the gateway with the Node flags the benchmarks measure', async () => {
    const gateway = findObject(await renderChart(values), 'Deployment', 'tollgate-gateway');
    const container = (gateway as Workload).spec.template.spec.containers[0] as Container;
    expect(env(container, 'NODE_OPTIONS')?.value).toBe(GATEWAY_NODE_FLAGS.join(' '));
  });
});

describe('gateway.nodeOptions', () => {
  it('export traces only with an endpoint: its variables, the header Secret and the egress to the collector', async () => {
    const plain = await renderChart('default');
    const plainGateway = findObject(plain, 'Deployment', 'tollgate-gateway') as Workload;
    const plainContainer = plainGateway.spec.template.spec.containers[0] as Container;
    expect(env(plainContainer, 'TOLLGATE_OTLP_ENDPOINT')).toBeUndefined();
    const plainPolicy = findObject(plain, 'NetworkPolicy', 'tollgate-gateway');
    expect(JSON.stringify(plainPolicy)).not.toContain('4318');

    const objects = await renderChart('production');
    const gateway = findObject(objects, 'Deployment', 'tollgate-gateway') as Workload;
    const container = gateway.spec.template.spec.containers[0] as Container;
    expect(env(container, 'TOLLGATE_OTLP_ENDPOINT')?.value).toBe(
      'http://tempo-distributor.monitoring:4318',
    );
    expect(env(container, 'TOLLGATE_TRACE_SAMPLE_RATIO')?.value).toBe('0.2');
    expect(env(container, 'TOLLGATE_TRACE_PARENT_SAMPLING')?.value).toBe('respect');
    expect(env(container, 'OTEL_SERVICE_NAME')?.value).toBe('tollgate-gateway');
    expect(env(container, 'OTEL_EXPORTER_OTLP_HEADERS')?.valueFrom?.secretKeyRef?.name).toBe(
      'tollgate-otlp',
    );
    const policy = findObject(objects, 'NetworkPolicy', 'tollgate-gateway') as unknown as {
      spec: { egress: { ports?: { port: number }[] }[] };
    };
    const ports = policy.spec.egress.flatMap((rule) => (rule.ports ?? []).map((each) => each.port));
    expect(ports).toContain(4318);
  });

  it('set empty, leaves Node its defaults', async () => {
    const objects = await renderChart('default', ['gateway.nodeOptions=']);
    const gateway = findObject(objects, 'Deployment', 'tollgate-gateway') as Workload;
    const container = gateway.spec.template.spec.containers[0] as Container;
    expect(env(container, 'TOLLGATE_LOG_LEVEL')).toBeDefined();
    expect(env(container, 'NODE_OPTIONS')).toBeUndefined();
  });
});

describe('the default values (evaluation)', () => {
  it('bundle Redis with a volume, run no recorder, and generate the pepper and the 32-byte key', async () => {
    const objects = await renderChart('default');
    const redis = findObject(objects, 'StatefulSet', 'tollgate-redis') as Workload & {
      spec: { volumeClaimTemplates?: unknown[] };
    };
    expect(redis.spec.volumeClaimTemplates).toHaveLength(1);
    expect(objects.find((object) => object.metadata.name === 'tollgate-recorder')).toBeUndefined();
    const keys = findObject(objects, 'Secret', 'tollgate-keys') as KubernetesObject & {
      data: Record<string, string>;
    };
    expect(keys.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
    const credentialKey = Buffer.from(keys.data['credential-key'] ?? '', 'base64').toString();
    expect(Buffer.from(credentialKey, 'base64')).toHaveLength(32);
    expect(Buffer.from(keys.data.pepper ?? '', 'base64').length).toBeGreaterThanOrEqual(32);
    const operator = findObject(objects, 'Deployment', 'tollgate-operator') as Workload;
    expect(operator.spec.replicas).toBe(2);
  });
});

describe('the production-like values', () => {
  it('use the existing Secrets, run the recorder and no bundled Redis or generated keys', async () => {
    const objects = await renderChart('production');
    expect(objects.filter((object) => object.kind === 'StatefulSet')).toEqual([]);
    expect(objects.find((object) => object.metadata.name === 'tollgate-keys')).toBeUndefined();
    const recorder = findObject(objects, 'Deployment', 'tollgate-recorder') as Workload;
    const container = recorder.spec.template.spec.containers[0] as Container;
    expect(env(container, 'TOLLGATE_DATABASE_URL')?.valueFrom?.secretKeyRef?.name).toBe(
      'tollgate-ledger',
    );
    expect(env(container, 'REDIS_URL')?.valueFrom?.secretKeyRef?.name).toBe('tollgate-redis');
    const gateway = findObject(objects, 'Deployment', 'tollgate-gateway') as Workload;
    expect(gateway.spec.replicas).toBeUndefined();
    expect(findObject(objects, 'HorizontalPodAutoscaler', 'tollgate-gateway')).toMatchObject({
      spec: { minReplicas: 3, maxReplicas: 30 },
    });
    const operator = findObject(objects, 'Deployment', 'tollgate-operator') as Workload;
    expect(operator.spec.replicas).toBe(3);
    expect(findObject(objects, 'Ingress', 'tollgate-console')).toBeDefined();
  });
});
