/** Types of `ensure-fresh-build.js` (plain JavaScript: it runs before anything is compiled). */
export type BuildState = { kind: 'no-sources' | 'fresh' } | { kind: 'stale'; reason: string };

export function listBuildSources(root: string): { files: string[]; newestMs: number };
export function readBuildState(root: string): BuildState;
export function findTypeScript(root: string): string | undefined;
export function buildDist(root: string, options?: { typeCheck?: boolean }): void;
export function ensureFreshBuild(root: string, options?: { log?: (line: string) => void }): void;
