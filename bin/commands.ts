/**
 * The one table of `tollgate` commands: each command's summary, flags (bin/flags/) and the module
 * that runs it. The help text (format-help.ts) and the argument check (check-arguments.ts) both
 * read it; each command then parses its flags and environment once itself.
 */
import type { FlagSpec } from './flags/flag-spec.js';
import { CONSOLE_FLAGS } from './flags/console-flags.js';
import { GATEWAY_FLAGS } from './flags/gateway-flags.js';
import { LOCAL_FLAGS } from './flags/local-flags.js';
import { OPERATOR_FLAGS } from './flags/operator-flags.js';
import { RECORDER_FLAGS } from './flags/recorder-flags.js';
import { SIMULATE_FLAGS } from './flags/simulate-flags.js';

/** Every command module exports `run(args)`. */
interface CommandModule {
  run(args: readonly string[]): Promise<void>;
}

export interface CommandSpec {
  name: string;
  summary: string;
  flags: readonly FlagSpec[];
  load: () => Promise<CommandModule>;
}

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'local',
    summary: 'Everything in one process on this machine: control plane, operator, gateway, console',
    flags: LOCAL_FLAGS,
    // The local command's V8 settings (memory at rest) apply before its modules load.
    load: async () => {
      const { applyLocalV8Flags } = await import('../local/start-local-v8-flags.js');
      applyLocalV8Flags();
      return import('../local/run-local.js');
    },
  },
  {
    name: 'gateway',
    summary: 'The data plane: authenticates, limits, forwards and meters calls',
    flags: GATEWAY_FLAGS,
    load: () => import('../gateway/run-gateway-workers.js'),
  },
  {
    name: 'operator',
    summary: 'Reconciles the Tollgate resources of a cluster into the policy store',
    flags: OPERATOR_FLAGS,
    load: () => import('../operator/run-operator.js'),
  },
  {
    name: 'recorder',
    summary: 'Drains the usage streams from Redis into the usage ledger (PostgreSQL)',
    flags: RECORDER_FLAGS,
    load: () => import('../ledger/run-recorder-command.js'),
  },
  {
    name: 'console',
    summary: 'The web console and its API, calling Kubernetes as the signed-in user',
    flags: CONSOLE_FLAGS,
    load: () => import('../console/server/run-console.js'),
  },
  {
    name: 'simulate',
    summary: 'A fake provider of all four platforms, to try clients without spending money',
    flags: SIMULATE_FLAGS,
    load: () => import('../local/simulator/run-simulate.js'),
  },
];

export function findCommand(name: string): CommandSpec | undefined {
  return COMMANDS.find((command) => command.name === name);
}
