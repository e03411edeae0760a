/** Errors carried as Kubernetes `Status` bodies (404 NotFound, 409 Conflict, 422 Invalid...). */
import type { JsonObject } from './kube-object.js';

export interface StatusCause {
  reason: string;
  message: string;
  field: string;
}

export interface ErrorTarget {
  group: string;
  kind: string;
  name: string;
}

export class ApiError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly details: JsonObject | undefined;

  constructor(options: { code: number; reason: string; message: string; details?: JsonObject }) {
    super(options.message);
    this.code = options.code;
    this.reason = options.reason;
    this.details = options.details;
  }

  toStatus(): JsonObject {
    const status: JsonObject = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    if (this.details !== undefined) status.details = this.details;
    return status;
  }
}

function qualified(target: ErrorTarget, plural: string): string {
  return target.group === '' ? plural : `${plural}.${target.group}`;
}

function detailsOf(target: ErrorTarget, plural: string): JsonObject {
  const details: JsonObject = { name: target.name, kind: plural };
  if (target.group !== '') details.group = target.group;
  return details;
}

export function notFound(target: ErrorTarget, plural: string): ApiError {
  return new ApiError({
    code: 404,
    reason: 'NotFound',
    message: `${qualified(target, plural)} "${target.name}" not found`,
    details: detailsOf(target, plural),
  });
}

export function alreadyExists(target: ErrorTarget, plural: string): ApiError {
  return new ApiError({
    code: 409,
    reason: 'AlreadyExists',
    message: `${qualified(target, plural)} "${target.name}" already exists`,
    details: detailsOf(target, plural),
  });
}

export function conflict(target: ErrorTarget, plural: string): ApiError {
  return new ApiError({
    code: 409,
    reason: 'Conflict',
    message:
      `Operation cannot be fulfilled on ${qualified(target, plural)} "${target.name}": ` +
      'the object has been modified; please apply your changes to the latest version and try again',
    details: detailsOf(target, plural),
  });
}

export function invalid(target: ErrorTarget, causes: readonly StatusCause[]): ApiError {
  const kind = target.group === '' ? target.kind : `${target.kind}.${target.group}`;
  const lines = causes.map((cause) => `${cause.field}: ${cause.message}`);
  const summary = lines.length === 1 ? (lines[0] ?? '') : `[${lines.join(', ')}]`;
  return new ApiError({
    code: 422,
    reason: 'Invalid',
    message: `${kind} "${target.name}" is invalid: ${summary}`,
    details: {
      name: target.name,
      group: target.group,
      kind: target.kind,
      causes: causes.map((cause) => ({ ...cause })),
    },
  });
}

export function badRequest(message: string): ApiError {
  return new ApiError({ code: 400, reason: 'BadRequest', message });
}

export function methodNotAllowed(message: string): ApiError {
  return new ApiError({ code: 405, reason: 'MethodNotAllowed', message });
}

export function unsupportedMediaType(contentType: string): ApiError {
  return new ApiError({
    code: 415,
    reason: 'UnsupportedMediaType',
    message: `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json (got ${contentType})`,
  });
}

export function gone(message: string): ApiError {
  return new ApiError({ code: 410, reason: 'Expired', message });
}

export function unauthorized(): ApiError {
  return new ApiError({ code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
}

/** `apierrors.NewForbidden`: `<resource>.<group> "name" is forbidden: <message>`. */
export function forbidden(
  target: { group: string; resource: string; name: string },
  message: string,
): ApiError {
  const qualified =
    target.resource === ''
      ? ''
      : target.group === ''
        ? target.resource
        : `${target.resource}.${target.group}`;
  let text: string;
  if (qualified === '') text = `forbidden: ${message}`;
  else if (target.name === '') text = `${qualified} is forbidden: ${message}`;
  else text = `${qualified} "${target.name}" is forbidden: ${message}`;
  const details: JsonObject = { kind: target.resource };
  if (target.name !== '') details.name = target.name;
  if (target.group !== '') details.group = target.group;
  return new ApiError({ code: 403, reason: 'Forbidden', message: text, details });
}
