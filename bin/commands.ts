/** The subcommands and the module that runs each one. Every module exports `run(args)`. */
interface CommandModule {
  run(args: readonly string[]): Promise<void>;
}

const commands: Record<string, () => Promise<CommandModule>> = {
  console: () => import('../console/server/run-console.js'),
  gateway: () => import('../gateway/run-gateway-workers.js'),
  // The local command's V8 settings (memory at rest) apply before its modules load.
  local: async () => {
    const { applyLocalV8Flags } = await import('../local/start-local-v8-flags.js');
    applyLocalV8Flags();
    return import('../local/run-local.js');
  },
  operator: () => import('../operator/run-operator.js'),
  recorder: () => import('../ledger/run-recorder-command.js'),
  simulate: () => import('../local/simulator/run-simulate.js'),
};

export function commandNames(): string[] {
  return Object.keys(commands);
}

export async function runCommand(name: string, args: readonly string[]): Promise<void> {
  const load = commands[name];
  if (load === undefined) {
    throw new Error(`unknown command '${name}'; commands: ${commandNames().join(', ')}`);
  }
  const module = await load();
  await module.run(args);
}
