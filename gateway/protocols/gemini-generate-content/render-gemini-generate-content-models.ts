/** Gemini model resources and lists (wire-formats.md 7). */
import type { CatalogueModel } from '../../models/model-catalogue.js';

export function renderGeminiModel(model: CatalogueModel) {
  return {
    name: `models/${model.id}`,
    baseModelId: model.id,
    version: '001',
    displayName: model.displayName,
    description: model.displayName,
    inputTokenLimit: model.inputTokenLimit,
    outputTokenLimit: model.outputTokenLimit,
    supportedGenerationMethods: ['generateContent', 'countTokens'],
  };
}

export function renderGeminiModelList(models: readonly CatalogueModel[]) {
  return { models: models.map(renderGeminiModel) };
}
