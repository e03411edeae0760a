/**
 * The first run that works without reading further: on the first start of a data folder (it holds
 * no objects yet), `tollgate local` starts the simulator in-process (gateway port + 5, or a free
 * port with `--port 0`) and creates the demo world (demo-world-objects.ts) through the control
 * plane, so a key created in namespace `demo` calls every platform at once. Later starts create
 * nothing; if demo Upstreams still exist they get the simulator again, at this run's address. A
 * data folder that held objects before never gets demo objects; `--no-demo` (or
 * `TOLLGATE_DEMO=false`) turns all of it off. Cluster mode never runs this.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeProvider, type FakeProvider } from './simulator/start-fake-provider.js';
import { createDemoWorld, pointDemoAtSimulator, type KubeAccess } from './create-demo-world.js';
import { DEMO_NAMESPACE } from './demo-world-objects.js';

export interface DemoOptions {
  /** From `--demo` / `--no-demo` / `TOLLGATE_DEMO`; default on. */
  enabled: boolean;
  /** The data folder held no objects before this start. */
  firstStart: boolean;
  host: string;
  gatewayPort: number;
  gatewayUrl: string;
  kubeconfigPath: string;
  operatorNamespace: string;
  access: KubeAccess;
}

export interface DemoWorld {
  simulatorUrl: string;
  /** Objects created by this start (0 on later starts). */
  created: number;
  banner: string[];
  close(): Promise<void>;
}

/** Takes `--demo` / `--no-demo` out of the arguments (the rest go to the local config). */
export function takeDemoFlag(
  args: readonly string[],
  environment: Readonly<Record<string, string | undefined>>,
): { enabled: boolean; rest: string[] } {
  const variable = environment.TOLLGATE_DEMO?.toLowerCase();
  let enabled = !(variable === 'false' || variable === '0' || variable === 'off');
  const rest: string[] = [];
  for (const arg of args) {
    if (arg === '--demo') enabled = true;
    else if (arg === '--no-demo') enabled = false;
    else rest.push(arg);
  }
  return { enabled, rest };
}

/** True when the data folder has no persisted objects (read before the control plane starts). */
export function holdsNoObjects(dataDirectory: string): boolean {
  const objects = join(dataDirectory, 'objects');
  return !existsSync(objects) || readdirSync(objects).length === 0;
}

/** The simulator as `tollgate local` runs it, inside its own process: any credential, gateway port + 5. */
export async function startDemoSimulator(host: string, gatewayPort: number): Promise<FakeProvider> {
  const settings = { host, credential: null, oauth: { refreshToken: null } };
  if (gatewayPort === 0 || gatewayPort + 5 > 65_535)
    return startFakeProvider({ ...settings, port: 0 });
  try {
    return await startFakeProvider({ ...settings, port: gatewayPort + 5 });
  } catch {
    return startFakeProvider({ ...settings, port: 0 });
  }
}

function demoBanner(options: DemoOptions, simulatorUrl: string, created: number): string[] {
  const kubectl = `kubectl --kubeconfig ${options.kubeconfigPath}`;
  const manifest =
    'apiVersion: tollgate.dev/v1alpha1\\nkind: ApiKey\\n' +
    `metadata: {name: me, namespace: ${DEMO_NAMESPACE}}\\nspec: {groupName: anthropic}\\n`;
  const body =
    '{"model":"claude-sonnet-4-6","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}';
  return [
    created > 0
      ? 'demo world (created on this first start; --no-demo turns it off):'
      : 'demo world (from the first start):',
    `  simulator:          ${simulatorUrl} (all four platforms, in-process, answers any credential)`,
    '  groups:             anthropic, openai, gemini, antigravity (Upstreams demo-*, all on the simulator)',
    '  on Vertex AI:       anthropic-vertex, gemini-vertex (provider GCPVertexAI, on the simulator)',
    '  on AWS Bedrock:     anthropic-bedrock (provider AWSBedrock, on the simulator)',
    `  namespace:          ${DEMO_NAMESPACE}, with an Account (credit 100 USD)`,
    `  a key:              in the console, sign in and create a key in namespace ${DEMO_NAMESPACE} (any group)`,
    `  or create a key:    printf '${manifest}' | ${kubectl} apply -f -`,
    `  its value:          KEY=$(${kubectl} get secret me-key -n ${DEMO_NAMESPACE} -o jsonpath='{.data.apiKey}' | base64 -d)`,
    `  call:               curl ${options.gatewayUrl}/v1/messages -H "x-api-key: $KEY" -H 'content-type: application/json' -d '${body}'`,
    `  its usage:          curl ${options.gatewayUrl}/v1/usage -H "x-api-key: $KEY"`,
  ];
}

export async function startDemoWorld(options: DemoOptions): Promise<DemoWorld | null> {
  if (!options.enabled) return null;
  // Started on demand: only when there is a demo world to serve.
  const holder: { simulator: FakeProvider | null } = { simulator: null };
  const ensureSimulator = async (): Promise<string> => {
    holder.simulator ??= await startDemoSimulator(options.host, options.gatewayPort);
    return holder.simulator.url;
  };
  try {
    let created = 0;
    if (options.firstStart) {
      created = await createDemoWorld(options.access, {
        simulatorUrl: await ensureSimulator(),
        operatorNamespace: options.operatorNamespace,
      });
    } else {
      await pointDemoAtSimulator(options.access, {
        startSimulator: ensureSimulator,
        operatorNamespace: options.operatorNamespace,
      });
    }
    const running = holder.simulator;
    if (running === null) return null;
    return {
      simulatorUrl: running.url,
      created,
      banner: demoBanner(options, running.url, created),
      close: () => running.close(),
    };
  } catch (error) {
    const running = holder.simulator;
    if (running !== null) await running.close();
    throw error;
  }
}
