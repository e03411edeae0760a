/**
 * Model lists and model gets: what the key's group (and the key) may use, in the shape of the
 * caller's API. `/v1/models` answers in the Anthropic shape for Anthropic keys and the OpenAI
 * shape for OpenAI keys.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Platform } from '../../crds/schema/resources.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { CatalogueModel } from '../models/model-catalogue.js';
import { findAllowedModel, listAllowedModels } from '../models/list-allowed-models.js';
import { allowedMethods } from '../stages/request/match-method-path.js';
import '../stages/request/route-config.js';
import { ROUTE_PROFILES, type RouteProfile } from '../stages/request/route-profile.js';
import { MODEL_RENDERERS } from '../protocols/registry.js';

type ListShape = 'anthropic' | 'openai' | 'gemini' | 'by-platform';

const listRenderers = MODEL_RENDERERS;

function keyScope(request: FastifyRequest): {
  platform: Platform;
  lists: { group: string[] | null; key: string[] | null };
} {
  const key = request.tollgate.authorized;
  if (key === null) throw new GatewayError('TG_INTERNAL', { detail: 'model route without a key' });
  return {
    platform: key.group.platform,
    lists: { group: key.group.modelsAllow, key: key.modelsAllow },
  };
}

function renderersFor(shape: ListShape, platform: Platform) {
  if (shape !== 'by-platform') return listRenderers[shape];
  return platform === 'Anthropic' ? listRenderers.anthropic : listRenderers.openai;
}

/** `GET /v1beta/models/{model}:generateContent` is a wrong method, not an unknown model. */
function refuseGenerationPath(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (allowedMethods(request.url) !== 'POST') return Promise.resolve();
  reply.header('allow', 'POST');
  return Promise.reject(new GatewayError('TG_METHOD_NOT_ALLOWED'));
}

interface ModelRoute {
  path: string;
  profile: RouteProfile;
  shape: ListShape;
}

const listRoutes: ModelRoute[] = [
  { path: '/v1/models', profile: ROUTE_PROFILES.sharedModels, shape: 'by-platform' },
  { path: '/v1beta/models', profile: ROUTE_PROFILES.geminiModels, shape: 'gemini' },
  { path: '/antigravity/models', profile: ROUTE_PROFILES.antigravityModels, shape: 'openai' },
  {
    path: '/antigravity/v1/models',
    profile: { ...ROUTE_PROFILES.antigravityMessages, forwarded: false },
    shape: 'anthropic',
  },
  {
    path: '/antigravity/v1beta/models',
    profile: ROUTE_PROFILES.antigravityGemini,
    shape: 'gemini',
  },
];

export function registerModelRoutes(app: FastifyInstance): void {
  for (const route of listRoutes) {
    app.get(route.path, { config: { profile: route.profile } }, (request) => {
      const scope = keyScope(request);
      const models: CatalogueModel[] = listAllowedModels(scope.platform, scope.lists);
      return Promise.resolve(renderersFor(route.shape, scope.platform).list(models));
    });
    app.get<{ Params: { id: string } }>(
      `${route.path}/:id`,
      { config: { profile: route.profile }, onRequest: refuseGenerationPath },
      (request) => {
        const scope = keyScope(request);
        const found = findAllowedModel(scope.platform, {
          id: request.params.id,
          lists: scope.lists,
        });
        if (found === null) return Promise.reject(new GatewayError('TG_MODEL_NOT_FOUND'));
        return Promise.resolve(renderersFor(route.shape, scope.platform).one(found));
      },
    );
  }
}
