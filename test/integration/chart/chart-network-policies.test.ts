/**
 * The operator's NetworkPolicy lets it reach the notifiers' receivers (`networkPolicy.notifierTargets`):
 * any address on 443 by default, the addresses, peers and ports set, and nothing when both are empty.
 */
import { describe, expect, it } from 'vitest';
import { findObject, renderChart, templateChart } from './render-chart.js';

interface EgressRule {
  to?: Record<string, unknown>[];
  ports?: { protocol: string; port: number }[];
}

async function operatorEgress(sets: readonly string[] = []): Promise<EgressRule[]> {
  const objects = await renderChart('default', sets);
  const policy = findObject(objects, 'NetworkPolicy', 'tollgate-operator') as unknown as {
    spec: { egress: EgressRule[] };
  };
  return policy.spec.egress;
}

const portsOf = (rule: EgressRule) => (rule.ports ?? []).map((each) => each.port);

describe('networkPolicy.notifierTargets', () => {
  it('lets the operator reach any address on 443 by default', async () => {
    const egress = await operatorEgress();
    expect(egress).toContainEqual({
      to: [{ ipBlock: { cidr: '0.0.0.0/0' } }, { ipBlock: { cidr: '::/0' } }],
      ports: [{ protocol: 'TCP', port: 443 }],
    });
  });

  it('renders the addresses, peers and ports set', async () => {
    const egress = await operatorEgress([
      'networkPolicy.notifierTargets.cidrs={203.0.113.0/24}',
      'networkPolicy.notifierTargets.ports={443,8080}',
      'networkPolicy.notifierTargets.to[0].namespaceSelector.matchLabels.team=a',
    ]);
    expect(egress).toContainEqual({
      to: [{ ipBlock: { cidr: '203.0.113.0/24' } }],
      ports: [
        { protocol: 'TCP', port: 443 },
        { protocol: 'TCP', port: 8080 },
      ],
    });
    expect(egress).toContainEqual({
      to: [{ namespaceSelector: { matchLabels: { team: 'a' } } }],
      ports: [
        { protocol: 'TCP', port: 443 },
        { protocol: 'TCP', port: 8080 },
      ],
    });
  });

  it('renders no receiver rule when no address and no peer is set', async () => {
    const egress = await operatorEgress([
      'networkPolicy.notifierTargets.cidrs=null',
      'networkPolicy.notifierTargets.ports={9999}',
    ]);
    expect(egress.flatMap(portsOf)).not.toContain(9999);
    // DNS, Redis and the API server stay.
    expect(egress.flatMap(portsOf)).toEqual(expect.arrayContaining([53, 6379, 443, 6443]));
  });

  it('refuses a port out of range and an address that is no CIDR', async () => {
    for (const set of [
      'networkPolicy.notifierTargets.ports={70000}',
      'networkPolicy.notifierTargets.cidrs={hooks.example.com}',
    ]) {
      const result = await templateChart('default', [set]);
      expect(result.code, set).not.toBe(0);
      expect(result.stderr).toContain('notifierTargets');
    }
  });
});
