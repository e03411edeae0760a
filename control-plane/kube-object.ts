/** The loose shapes the local control plane stores: JSON values and Kubernetes objects. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: JsonObject;
  [key: string]: JsonValue;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => jsonEqual(a[key], b[key]));
  }
  return false;
}

export function stringField(object: JsonObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
}

export function objectField(object: JsonObject, key: string): JsonObject | undefined {
  const value = object[key];
  return isJsonObject(value) ? value : undefined;
}

export function stringMapField(object: JsonObject, key: string): Record<string, string> {
  const value = objectField(object, key) ?? {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

export function objectName(object: KubeObject): string {
  return stringField(object.metadata, 'name') ?? '';
}

export function objectNamespace(object: KubeObject): string | undefined {
  return stringField(object.metadata, 'namespace');
}

export function finalizersOf(object: KubeObject): string[] {
  const value = object.metadata.finalizers;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A primitive as text (`''` for objects, arrays, null and absence). */
export function textOf(value: JsonValue | undefined): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : '';
}
