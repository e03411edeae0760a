/**
 * Test support: the parts of the repository's Dockerfile that decide what the image holds, read
 * from the file itself so that the image-tree test assembles exactly what the image would: the
 * runtime stage's COPY lines, its user, entrypoint and labels, and each stage's RUN commands.
 */

export interface DockerCopy {
  /** The stage copied from (`deps`, `build`), or undefined for the build context. */
  from: string | undefined;
  sources: string[];
  destination: string;
}

export interface DockerStage {
  name: string;
  workdir: string;
  copies: DockerCopy[];
  runs: string[];
  instructions: { keyword: string; argument: string }[];
}

/** Instructions with line continuations joined and comments dropped. */
function readInstructions(text: string): { keyword: string; argument: string }[] {
  const joined = text.replace(/\\\r?\n/g, ' ');
  const instructions: { keyword: string; argument: string }[] = [];
  for (const line of joined.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const match = /^([A-Za-z]+)\s+(.*)$/.exec(trimmed);
    if (match?.[1] === undefined || match[2] === undefined) {
      throw new Error(`unreadable Dockerfile line: ${trimmed}`);
    }
    instructions.push({ keyword: match[1].toUpperCase(), argument: match[2].trim() });
  }
  return instructions;
}

function readCopy(argument: string): DockerCopy {
  const words = argument.split(/\s+/);
  let from: string | undefined;
  while (words[0]?.startsWith('--') === true) {
    const flag = words.shift() ?? '';
    if (flag.startsWith('--from=')) from = flag.slice('--from='.length);
    else throw new Error(`COPY flag the image-tree test does not model: ${flag}`);
  }
  const destination = words.pop();
  if (destination === undefined || words.length === 0) throw new Error(`bad COPY: ${argument}`);
  return { from, sources: words, destination };
}

/** Every stage of the Dockerfile, by name (`FROM … AS name`). */
export function readDockerfile(text: string): Map<string, DockerStage> {
  const stages = new Map<string, DockerStage>();
  let stage: DockerStage | undefined;
  for (const instruction of readInstructions(text)) {
    if (instruction.keyword === 'FROM') {
      const name = /\sAS\s+(\S+)$/i.exec(instruction.argument)?.[1];
      if (name === undefined) throw new Error(`unnamed stage: FROM ${instruction.argument}`);
      stage = { name, workdir: '/', copies: [], runs: [], instructions: [] };
      stages.set(name, stage);
      continue;
    }
    if (stage === undefined) continue;
    stage.instructions.push(instruction);
    if (instruction.keyword === 'WORKDIR') stage.workdir = instruction.argument;
    if (instruction.keyword === 'COPY') stage.copies.push(readCopy(instruction.argument));
    if (instruction.keyword === 'RUN') stage.runs.push(instruction.argument);
  }
  return stages;
}

/** `["node", "bin/tollgate.js"]` as an array. */
export function readExecForm(argument: string): string[] {
  const parsed: unknown = JSON.parse(argument);
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) {
    throw new Error(`not an exec-form list: ${argument}`);
  }
  return parsed;
}

/** `LABEL a="x" b="y"` pairs of every LABEL instruction. */
export function readLabels(stage: DockerStage): Map<string, string> {
  const labels = new Map<string, string>();
  for (const { keyword, argument } of stage.instructions) {
    if (keyword !== 'LABEL') continue;
    for (const match of argument.matchAll(/([\w.-]+)="([^"]*)"/g)) {
      labels.set(match[1] ?? '', match[2] ?? '');
    }
  }
  return labels;
}
