/**
 * The error body for an error shape, by the protocol's renderer from the protocols registry (the one
 * place shared error code meets protocols).
 */
import type { ErrorShape, ErrorView } from './error-view.js';
import { ERROR_RENDERERS } from '../protocols/registry.js';

export function renderErrorBody(shape: ErrorShape, error: ErrorView): object {
  return ERROR_RENDERERS[shape](error);
}
