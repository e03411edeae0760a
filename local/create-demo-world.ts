/**
 * Writes the demo world through the local Kubernetes API as the admin (the token in the data
 * folder), as `kubectl create` would: objects that exist already are left as they are. On later
 * starts, `pointDemoAtSimulator` moves the demo Upstreams to the simulator's address of this run
 * (it changes with `--port 0`) and creates nothing.
 */
import { Agent, request, type Dispatcher } from 'undici';
import { PLATFORMS, type Platform } from '../crds/schema/resources.js';
import { DEMO_BEDROCK_UPSTREAM } from './demo-bedrock-objects.js';
import { vertexRepoints, type VertexUpstreamItem } from './demo-vertex-objects.js';
import {
  DEMO_LABEL,
  demoUpstreamName,
  demoWorldObjects,
  simulatorFields,
} from './demo-world-objects.js';
import type { KubeManifest } from './kube-manifest.js';

export interface KubeAccess {
  apiUrl: string;
  token: string;
  certificateAuthority: string;
}

const PLURALS: Record<string, string> = {
  Namespace: 'namespaces',
  Secret: 'secrets',
  Upstream: 'upstreams',
  Group: 'groups',
  Account: 'accounts',
};

function collectionPath(object: KubeManifest): string {
  const plural = PLURALS[object.kind];
  if (plural === undefined) throw new Error(`demo world: no path for kind ${object.kind}`);
  const group = object.apiVersion === 'v1' ? '/api/v1' : `/apis/${object.apiVersion}`;
  const namespace = object.metadata.namespace;
  return namespace === undefined
    ? `${group}/${plural}`
    : `${group}/namespaces/${namespace}/${plural}`;
}

async function call(
  access: KubeAccess & { dispatcher: Dispatcher },
  options: { method: 'GET' | 'POST' | 'PATCH'; path: string; body?: unknown; patch?: boolean },
): Promise<{ status: number; body: unknown }> {
  const response = await request(`${access.apiUrl}${options.path}`, {
    method: options.method,
    dispatcher: access.dispatcher,
    headers: {
      authorization: `Bearer ${access.token}`,
      accept: 'application/json',
      'content-type': options.patch === true ? 'application/merge-patch+json' : 'application/json',
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text === '' ? null : (JSON.parse(text) as unknown) };
}

async function withAccess<T>(
  access: KubeAccess,
  work: (session: KubeAccess & { dispatcher: Dispatcher }) => Promise<T>,
): Promise<T> {
  const dispatcher = new Agent({ connect: { ca: access.certificateAuthority } });
  try {
    return await work({ ...access, dispatcher });
  } finally {
    await dispatcher.close();
  }
}

/** Creates every demo object; returns how many were created (existing ones are kept). */
export function createDemoWorld(
  access: KubeAccess,
  options: { simulatorUrl: string; operatorNamespace: string },
): Promise<number> {
  return withAccess(access, async (session) => {
    let created = 0;
    for (const object of demoWorldObjects(options)) {
      const answer = await call(session, {
        method: 'POST',
        path: collectionPath(object),
        body: object,
      });
      if (answer.status === 201 || answer.status === 200) created++;
      else if (answer.status !== 409) {
        throw new Error(
          `demo world: creating ${object.kind} ${object.metadata.name} answered ${answer.status}: ${JSON.stringify(answer.body)}`,
        );
      }
    }
    return created;
  });
}

interface UpstreamItem {
  metadata: { name: string };
  spec: {
    platform: Platform;
    baseURL: string;
    credentials: { googleOAuth?: { tokenURL: string } };
    awsBedrock?: { endpoint?: string };
  };
}

/**
 * The names of the demo Upstreams (by label) that still exist. When there are any, the simulator
 * is started and each is re-pointed at its address where it differs.
 */
export function pointDemoAtSimulator(
  access: KubeAccess,
  options: { startSimulator: () => Promise<string>; operatorNamespace: string },
): Promise<string[]> {
  return withAccess(access, async (session) => {
    const selector = encodeURIComponent(`${DEMO_LABEL}=true`);
    const list = await call(session, {
      method: 'GET',
      path: `/apis/tollgate.dev/v1alpha1/upstreams?labelSelector=${selector}`,
    });
    const listed = (list.body as { items?: (UpstreamItem & VertexUpstreamItem)[] } | null)?.items;
    const items = (listed ?? []).filter((item) =>
      PLATFORMS.some((platform) => demoUpstreamName(platform) === item.metadata.name),
    );
    if (items.length === 0) return [];
    const simulatorUrl = await options.startSimulator();
    const { operatorNamespace } = options;
    for (const patch of vertexRepoints({ items: listed ?? [], simulatorUrl, operatorNamespace })) {
      const answer = await call(session, { method: 'PATCH', ...patch, patch: true });
      if (answer.status !== 200) {
        throw new Error(`demo world: re-pointing ${patch.path} answered ${answer.status}`);
      }
    }
    const bedrock = (listed ?? []).filter((item) => item.metadata.name === DEMO_BEDROCK_UPSTREAM);
    for (const item of bedrock) {
      if (item.spec.awsBedrock?.endpoint === simulatorUrl) continue;
      const answer = await call(session, {
        method: 'PATCH',
        path: `/apis/tollgate.dev/v1alpha1/upstreams/${item.metadata.name}`,
        body: { spec: { awsBedrock: { endpoint: simulatorUrl } } },
        patch: true,
      });
      if (answer.status !== 200) {
        throw new Error(`demo world: re-pointing ${item.metadata.name} answered ${answer.status}`);
      }
    }
    for (const item of items) {
      const fields = simulatorFields(item.spec.platform, simulatorUrl);
      const tokenURL = item.spec.credentials.googleOAuth?.tokenURL;
      if (item.spec.baseURL === fields.baseURL && tokenURL === fields.tokenURL) continue;
      const spec: Record<string, unknown> = { baseURL: fields.baseURL };
      if (fields.tokenURL !== undefined) {
        spec.credentials = { googleOAuth: { tokenURL: fields.tokenURL } };
      }
      const answer = await call(session, {
        method: 'PATCH',
        path: `/apis/tollgate.dev/v1alpha1/upstreams/${item.metadata.name}`,
        body: { spec },
        patch: true,
      });
      if (answer.status !== 200) {
        throw new Error(`demo world: re-pointing ${item.metadata.name} answered ${answer.status}`);
      }
    }
    return items.map((item) => item.metadata.name);
  });
}
