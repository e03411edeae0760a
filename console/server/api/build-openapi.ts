/** The OpenAPI 3.1 document of the console API, built from the route table and its zod schemas. */
import { z } from 'zod';
import type { ApiRoute } from './api-route.js';

type Json = Record<string, unknown>;

const errorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
  const rest: Json = { ...json };
  delete rest.$schema;
  return rest;
}

function parametersOf(route: ApiRoute): Json[] {
  const parameters: Json[] = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (route.query !== undefined) {
    const query = schemaOf(route.query, 'input') as { properties?: Json; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({
        name,
        in: 'query',
        required: query.required?.includes(name) ?? false,
        schema,
      });
    }
  }
  return parameters;
}

export function buildOpenApi(routes: readonly ApiRoute[]): Json {
  const paths: Record<string, Json> = {};
  const errorResponse = { $ref: '#/components/responses/Error' };
  for (const route of routes) {
    const status = String(route.successStatus ?? 200);
    const media = route.produces ?? 'application/json';
    const success: Json =
      status === '302'
        ? { description: 'Redirect' }
        : {
            description: 'Success',
            content: {
              [media]: {
                schema:
                  route.response === undefined || media !== 'application/json'
                    ? media === 'application/json'
                      ? { type: 'object' }
                      : { type: 'string' }
                    : schemaOf(route.response, 'output'),
              },
            },
          };
    const operation: Json = {
      operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
      summary: route.summary,
      tags: [route.tag],
      parameters: parametersOf(route),
      responses: { [status]: success, '4XX': errorResponse, '5XX': errorResponse },
      security: route.public === true ? [] : [{ session: [] }],
    };
    if (route.body !== undefined) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: schemaOf(route.body, 'input') } },
      };
    }
    const path = `/api/v1${route.path}`;
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tollgate console API',
      version: 'v1',
      description:
        'Calls Kubernetes as the signed-in user (impersonation). State-changing calls need the ' +
        'session cookie and the x-csrf-token header (the csrfToken of GET /api/v1/me).',
    },
    paths,
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'tollgate_console_session' },
      },
      responses: {
        Error: {
          description: 'A refusal: `{ error: { code, message, field? } }`.',
          content: { 'application/json': { schema: schemaOf(errorSchema, 'output') } },
        },
      },
    },
  };
}
