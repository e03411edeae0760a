/**
 * Pure: `meta.k8s.io/v1` Table responses for `kubectl get`, from printer columns (JSONPath subset:
 * `.a.b`, `.a[0]`, `.a[*].b`, `.a[?(@.type=="Ready")].b`). Dates become ages, as the API server does.
 */
import type { JsonObject, JsonValue, KubeObject } from './kube-object.js';
import { isJsonObject, textOf } from './kube-object.js';
import type { PrinterColumn, ResourceKind } from './resource-kind.js';

type Step =
  | { field: string }
  | { index: number }
  | { all: true }
  | { filter: { key: string; value: string } };

function parsePath(path: string): Step[] {
  const steps: Step[] = [];
  const pattern =
    /\.([A-Za-z0-9_-]+)|\[(\d+)\]|\[\*\]|\[\?\(@\.([A-Za-z0-9_-]+)\s*==\s*["']([^"']*)["']\)\]/gy;
  let match: RegExpExecArray | null;
  const text = path.replace(/^\{|\}$/g, '');
  while ((match = pattern.exec(text)) !== null) {
    const [, field, index, key, value] = match;
    if (field !== undefined) steps.push({ field });
    else if (index !== undefined) steps.push({ index: Number(index) });
    else if (key !== undefined) steps.push({ filter: { key, value: value ?? '' } });
    else steps.push({ all: true });
  }
  return steps;
}

export function findJsonPath(value: JsonValue, path: string): JsonValue[] {
  let current: JsonValue[] = [value];
  for (const step of parsePath(path)) {
    const next: JsonValue[] = [];
    for (const item of current) {
      if ('field' in step && isJsonObject(item)) {
        const child = item[step.field];
        if (child !== undefined) next.push(child);
      } else if ('index' in step && Array.isArray(item)) {
        const child = item[step.index];
        if (child !== undefined) next.push(child);
      } else if ('all' in step && Array.isArray(item)) {
        next.push(...item);
      } else if ('filter' in step && Array.isArray(item)) {
        const { key, value: wanted } = step.filter;
        next.push(...item.filter((entry) => isJsonObject(entry) && textOf(entry[key]) === wanted));
      }
    }
    current = next;
  }
  return current;
}

/** Kubernetes' `duration.HumanDuration`, so ages read the same as against a cluster. */
export function humanAge(timestamp: string, now: number): string {
  const milliseconds = now - Date.parse(timestamp);
  if (Number.isNaN(milliseconds)) return '<invalid>';
  const seconds = Math.trunc(milliseconds / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}

function cellFor(column: PrinterColumn, object: KubeObject, now: number): JsonValue {
  if (column.compute !== undefined) return column.compute(object);
  const found = findJsonPath(object, column.jsonPath ?? '');
  const value = found[0];
  if (value === undefined || value === null) return null;
  switch (column.type) {
    case 'date':
      return typeof value === 'string' ? humanAge(value, now) : null;
    case 'integer':
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

function columnDefinition(column: PrinterColumn): JsonObject {
  return {
    name: column.name,
    type: column.type === 'date' ? 'string' : column.type,
    format: '',
    description: column.description ?? '',
    priority: column.priority ?? 0,
  };
}

export function renderTable(
  kind: ResourceKind,
  request: { objects: readonly KubeObject[]; resourceVersion: string; now: number },
): JsonObject {
  const columns = kind.printerColumns;
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion: request.resourceVersion },
    columnDefinitions: [
      {
        name: 'Name',
        type: 'string',
        format: 'name',
        description: 'Name of the object',
        priority: 0,
      },
      ...columns.map(columnDefinition),
    ],
    rows: request.objects.map((object) => ({
      cells: [
        object.metadata.name ?? '',
        ...columns.map((column) => cellFor(column, object, request.now)),
      ],
      object: {
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: object.metadata,
      },
    })),
  };
}
