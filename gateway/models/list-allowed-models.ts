/** The catalogue models a key may use: its group's and its own allow globs over the platform. */
import type { Platform } from '../../crds/schema/resources.js';
import { isModelAllowed } from './match-model-globs.js';
import { MODEL_CATALOGUE, type CatalogueModel } from './model-catalogue.js';

export interface ModelAllowLists {
  group: readonly string[] | null;
  key: readonly string[] | null;
}

export function listAllowedModels(platform: Platform, lists: ModelAllowLists): CatalogueModel[] {
  return MODEL_CATALOGUE[platform].filter((entry) => isModelAllowed(entry.id, lists));
}

export function findAllowedModel(
  platform: Platform,
  query: { id: string; lists: ModelAllowLists },
): CatalogueModel | null {
  const id = query.id.replace(/^models\//, '');
  return listAllowedModels(platform, query.lists).find((entry) => entry.id === id) ?? null;
}
