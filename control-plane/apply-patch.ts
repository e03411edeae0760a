/**
 * Pure: JSON merge patch (RFC 7386), JSON patch (RFC 6902) and strategic merge patch for core kinds
 * (applied with merge semantics, which is what kubectl sends for Secrets and Namespaces).
 */
import { badRequest, unsupportedMediaType } from './api-errors.js';
import type { JsonObject, JsonValue } from './kube-object.js';
import { isJsonObject, jsonEqual, textOf } from './kube-object.js';

export function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return structuredClone(patch);
  const out: JsonObject = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) Reflect.deleteProperty(out, key);
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw badRequest(`invalid JSON pointer: ${path}`);
  return path
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(document: JsonValue, path: string): { parent: JsonValue; key: string } {
  const parts = pointer(path);
  const shown = path.replace(/^\/root/, '');
  const key = parts.pop();
  if (key === undefined) throw badRequest('JSON patch path must not be empty');
  let parent: JsonValue = document;
  for (const part of parts) {
    const next: JsonValue | undefined = Array.isArray(parent)
      ? parent[Number(part)]
      : isJsonObject(parent)
        ? parent[part]
        : undefined;
    if (next === undefined) throw badRequest(`jsonpatch: path ${shown} does not exist`);
    parent = next;
  }
  return { parent, key };
}

function read(document: JsonValue, path: string): JsonValue {
  const { parent, key } = parentOf(document, path);
  const value = Array.isArray(parent)
    ? parent[Number(key)]
    : isJsonObject(parent)
      ? parent[key]
      : undefined;
  if (value === undefined) {
    throw badRequest(`jsonpatch: path ${path.replace(/^\/root/, '')} does not exist`);
  }
  return value;
}

function add(document: JsonValue, path: string, value: JsonValue): void {
  const { parent, key } = parentOf(document, path);
  if (Array.isArray(parent)) {
    const index = key === '-' ? parent.length : Number(key);
    if (!Number.isInteger(index) || index < 0 || index > parent.length) {
      throw badRequest(`jsonpatch: index out of range: ${path.replace(/^\/root/, '')}`);
    }
    parent.splice(index, 0, structuredClone(value));
  } else if (isJsonObject(parent)) {
    parent[key] = structuredClone(value);
  } else {
    throw badRequest(`jsonpatch: cannot add at ${path.replace(/^\/root/, '')}`);
  }
}

function remove(document: JsonValue, path: string): void {
  read(document, path);
  const { parent, key } = parentOf(document, path);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else if (isJsonObject(parent)) Reflect.deleteProperty(parent, key);
}

export function jsonPatch(target: JsonValue, operations: JsonValue): JsonValue {
  if (!Array.isArray(operations)) throw badRequest('a JSON patch must be a list of operations');
  const document = { root: structuredClone(target) };
  for (const operation of operations) {
    if (!isJsonObject(operation)) throw badRequest('invalid JSON patch operation');
    const path = `/root${textOf(operation.path)}`;
    const from = `/root${textOf(operation.from)}`;
    const value = operation.value ?? null;
    switch (textOf(operation.op)) {
      case 'add':
        add(document, path, value);
        break;
      case 'remove':
        remove(document, path);
        break;
      case 'replace':
        remove(document, path);
        add(document, path, value);
        break;
      case 'move': {
        const moved = read(document, from);
        remove(document, from);
        add(document, path, moved);
        break;
      }
      case 'copy':
        add(document, path, read(document, from));
        break;
      case 'test':
        if (!jsonEqual(read(document, path), value)) {
          throw badRequest(`jsonpatch: test failed at ${textOf(operation.path)}`);
        }
        break;
      default:
        throw badRequest(
          `jsonpatch: unsupported operation ${JSON.stringify(operation.op ?? null)}`,
        );
    }
  }
  return document.root;
}

/** Strategic-merge directives (`$setElementOrder/...`, `$patch`, `$retainKeys`) have no effect here. */
function withoutDirectives(patch: JsonValue): JsonValue {
  if (Array.isArray(patch)) return patch.map(withoutDirectives);
  if (!isJsonObject(patch)) return patch;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(patch)) {
    if (!key.startsWith('$')) out[key] = withoutDirectives(value);
  }
  return out;
}

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

export function patchTypeOf(contentType: string, strategicAllowed: boolean): PatchType {
  const media = contentType.split(';')[0]?.trim() ?? '';
  if (media === 'application/merge-patch+json') return 'merge';
  if (media === 'application/json-patch+json') return 'json';
  if (media === 'application/strategic-merge-patch+json' && strategicAllowed) return 'strategic';
  if (media === 'application/apply-patch+yaml') return 'apply';
  throw unsupportedMediaType(media);
}

export function applyPatch(
  target: JsonValue,
  patch: { type: PatchType; body: JsonValue },
): JsonValue {
  switch (patch.type) {
    case 'merge':
      return mergePatch(target, patch.body);
    case 'strategic':
      return mergePatch(target, withoutDirectives(patch.body));
    case 'apply':
      return mergePatch(target, patch.body);
    case 'json':
      return jsonPatch(target, patch.body);
  }
}
