/**
 * Where a Tollgate process's memory is, from its own metrics page (prom-client's default metrics,
 * prefixed `tollgate_`): the committed size of each V8 heap space and the memory outside the heap
 * that V8 accounts for (Buffers and other external memory), in MB to one decimal.
 */
const FIGURE =
  /^tollgate_nodejs_(?:heap_space_size_total_bytes\{space="(\w+)"\}|(external_memory_bytes)) (\S+)$/gm;

export function parseHeapFigures(metricsText: string): Record<string, number> {
  const figures: Record<string, number> = {};
  for (const match of metricsText.matchAll(FIGURE)) {
    const name = match[1] ?? match[2] ?? '';
    figures[name] = Math.round(Number(match[3]) / 100_000) / 10;
  }
  return figures;
}

export async function readHeapFigures(metricsUrl: string): Promise<Record<string, number>> {
  return parseHeapFigures(await (await fetch(metricsUrl)).text());
}
