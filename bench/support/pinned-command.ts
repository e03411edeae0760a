/**
 * The command line of a bench process: `taskset -c <cpus>` when pinned, then a wrapper such as
 * `chrt -i 0` or valgrind, then the program and its arguments.
 */
export function pinnedCommand(
  cpus: string | null | undefined,
  wrapper: readonly string[] | undefined,
  program: readonly string[],
): { command: string; args: string[] } {
  const wrapped = [...(wrapper ?? []), ...program];
  const [command, ...args] =
    cpus === null || cpus === undefined ? wrapped : ['taskset', '-c', cpus, ...wrapped];
  if (command === undefined) throw new Error('no command to run');
  return { command, args };
}
