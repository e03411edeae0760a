/** Kubernetes refusals as console API errors: 403, 404, 409 and 422 (with the first field cause). */
import { ConsoleError } from '../console-error.js';
import { KubeApiError } from './kube-client.js';

function firstCauseField(body: Record<string, unknown>): string | undefined {
  const details = body.details;
  if (typeof details !== 'object' || details === null) return undefined;
  const causes = (details as { causes?: unknown }).causes;
  if (!Array.isArray(causes)) return undefined;
  for (const cause of causes as unknown[]) {
    if (typeof cause === 'object' && cause !== null) {
      const field = (cause as { field?: unknown }).field;
      if (typeof field === 'string' && field !== '') return field;
    }
  }
  return undefined;
}

export function mapKubeError(error: unknown): unknown {
  if (!(error instanceof KubeApiError)) return error;
  const message = error.message;
  switch (error.status) {
    case 400:
      return new ConsoleError('INVALID_INPUT', message, { cause: error });
    case 403:
      return new ConsoleError('FORBIDDEN', message, { cause: error });
    case 404:
      return new ConsoleError('NOT_FOUND', message, { cause: error });
    case 409:
      return new ConsoleError('CONFLICT', message, { cause: error });
    case 422: {
      const field = firstCauseField(error.body);
      return new ConsoleError('INVALID', message, {
        cause: error,
        ...(field === undefined ? {} : { field }),
      });
    }
    default:
      return new ConsoleError('KUBERNETES_ERROR', `Kubernetes API: ${message}`, { cause: error });
  }
}
