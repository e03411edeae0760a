import { describe, expect, it } from 'vitest';
import type { KubeObject } from './kube-object.js';
import { findJsonPath, humanAge, renderTable } from './render-table.js';
import { loadResourceKinds } from './resource-kinds.js';

const key: KubeObject = {
  apiVersion: 'tollgate.dev/v1alpha1',
  kind: 'ApiKey',
  metadata: { name: 'k', namespace: 'team', creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { displayName: 'Key', groupName: 'g', expirationTime: '2026-01-02T00:00:00Z' },
  status: {
    conditions: [
      { type: 'Programmed', status: 'False', reason: 'Pending' },
      { type: 'Ready', status: 'True', reason: 'Active' },
    ],
  },
};

describe('tables', () => {
  it('reads the JSONPath subset, including filters', () => {
    expect(findJsonPath(key, '.status.conditions[?(@.type=="Ready")].reason')).toEqual(['Active']);
    expect(findJsonPath(key, '.status.conditions[0].type')).toEqual(['Programmed']);
    expect(findJsonPath(key, '.status.conditions[*].status')).toEqual(['False', 'True']);
    expect(findJsonPath(key, '.spec.missing')).toEqual([]);
  });

  it('ages like the API server, and marks future dates invalid', () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    expect(humanAge('2026-01-01T00:00:00Z', start + 5_000)).toBe('5s');
    expect(humanAge('2026-01-01T00:00:00Z', start + 185_000)).toBe('3m5s');
    expect(humanAge('2026-01-01T00:00:00Z', start + 3 * 3_600_000 + 60_000)).toBe('3h1m');
    expect(humanAge('2026-01-01T00:00:00Z', start + 3 * 86_400_000)).toBe('3d');
    expect(humanAge('2026-01-01T00:00:00Z', start - 10_000)).toBe('<invalid>');
  });

  it('renders printer columns with the row metadata kubectl needs', () => {
    const kind = loadResourceKinds().find((item) => item.kind === 'ApiKey');
    if (kind === undefined) throw new Error('ApiKey kind missing');
    const now = Date.parse('2026-01-01T00:01:00Z');
    const table = renderTable(kind, { objects: [key], resourceVersion: '7', now });
    expect(table.columnDefinitions).toContainEqual(
      expect.objectContaining({ name: 'Expires', priority: 1 }),
    );
    expect(table.rows).toEqual([
      {
        cells: ['k', 'Key', 'g', 'True', 'Active', null, '2026-01-02T00:00:00Z', '60s'],
        object: {
          kind: 'PartialObjectMetadata',
          apiVersion: 'meta.k8s.io/v1',
          metadata: key.metadata,
        },
      },
    ]);
  });
});
