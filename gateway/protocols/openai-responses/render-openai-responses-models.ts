/** OpenAI model objects and lists (wire-formats.md 7). */
import type { CatalogueModel } from '../../models/model-catalogue.js';

export function renderOpenAIModel(model: CatalogueModel) {
  return {
    id: model.id,
    object: 'model' as const,
    created: Math.floor(Date.parse(model.createdAt) / 1000),
    owned_by: 'tollgate',
  };
}

export function renderOpenAIModelList(models: readonly CatalogueModel[]) {
  return { object: 'list' as const, data: models.map(renderOpenAIModel) };
}
