/** Anthropic model objects and lists (wire-formats.md 7). */
import type { CatalogueModel } from '../../models/model-catalogue.js';

export function renderAnthropicModel(model: CatalogueModel) {
  return {
    type: 'model' as const,
    id: model.id,
    display_name: model.displayName,
    created_at: model.createdAt,
    max_input_tokens: model.inputTokenLimit,
    max_tokens: model.outputTokenLimit,
  };
}

export function renderAnthropicModelList(models: readonly CatalogueModel[]) {
  return {
    data: models.map(renderAnthropicModel),
    has_more: false,
    first_id: models[0]?.id ?? null,
    last_id: models.at(-1)?.id ?? null,
  };
}
