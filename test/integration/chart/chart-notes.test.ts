/**
 * The install notes (templates/NOTES.txt, as `helm install --dry-run=client` prints them) tell how
 * to create the first key: the manifests they show are accepted by the API (the local control plane
 * validates them against the same CRD schemas), and the commands name the chart's Services.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlane, type Plane } from '../control-plane/control-plane-harness.js';
import { CHART, RELEASE, helm } from './render-chart.js';

let plane: Plane;
let notes = '';

beforeAll(async () => {
  const result = await helm([
    'install',
    RELEASE.name,
    CHART,
    '--namespace',
    RELEASE.namespace,
    '--dry-run=client',
  ]);
  expect(result.code, result.stderr).toBe(0);
  notes = result.stdout.slice(result.stdout.indexOf('NOTES:'));
  plane = await startPlane();
});

afterAll(async () => {
  await plane.stop();
});

/** The heredoc manifests of the notes, indentation removed. */
function manifests(text: string): string[] {
  return [...text.matchAll(/<<'YAML'\n([\s\S]*?)\n\s*YAML\n/g)].map((match) =>
    (match[1] ?? '')
      .split('\n')
      .map((line) => line.replace(/^ {3}/, ''))
      .join('\n'),
  );
}

it('shows manifests for an Upstream, a Group, an Account and a first ApiKey that the API accepts', async () => {
  const shown = manifests(notes);
  expect(shown).toHaveLength(2);
  await plane.ok(['create', 'namespace', 'team-a']);
  for (const manifest of shown) await plane.ok(['apply', '-f', '-'], manifest);
  const kinds = await plane.ok(['get', 'tollgate', '-A', '-o', 'name']);
  expect(kinds.split('\n').filter(Boolean).sort()).toEqual([
    'account.tollgate.dev/default',
    'apikey.tollgate.dev/first-key',
    'group.tollgate.dev/anthropic',
    'upstream.tollgate.dev/anthropic',
  ]);
});

it('reads the key value from the Secret the operator generates, and names the Services', () => {
  expect(notes).toContain(
    "kubectl -n team-a get secret first-key-key -o jsonpath='{.data.apiKey}' | base64 -d",
  );
  expect(notes).toContain('svc/tollgate-gateway 8080:80');
  expect(notes).toContain('svc/tollgate-console 8084:80');
  expect(notes).toContain('WARNING: no ledger PostgreSQL is configured');
});
