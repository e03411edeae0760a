/**
 * A key's client configuration (Claude Code, Codex CLI, Gemini CLI, OpenCode: files, environment
 * variables, CC Switch links) as the signed-in user, with the key placeholder: the console never
 * reads key Secrets; the value is in the creation and rotation answers only.
 */
import type { ApiKey } from '../../../crds/schema/resources.js';
import { defineRoute, session, type ApiRoute } from '../api/api-route.js';
import { clientConfigSchema } from '../client-config/client-config-schema.js';
import type { ConsoleContext } from '../console-context.js';
import { ConsoleError } from '../console-error.js';
import { readKeyClientConfig } from '../keys/read-key-client-config.js';

export function clientConfigRoutes(context: ConsoleContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/accounts/{namespace}/keys/{name}/client-config',
      summary:
        "Client configuration for the key's platform (per tool: files, environment variables, " +
        'shell lines, a try command), with the placeholder <your-tollgate-key> for the value.',
      tag: 'Keys',
      response: clientConfigSchema,
      handler: async (call) => {
        const { kube } = session(call);
        const { namespace, name } = call.params;
        if (namespace === undefined || name === undefined) {
          throw new ConsoleError('INVALID_INPUT', 'missing namespace or name');
        }
        const key = await kube.get<ApiKey>({ kind: 'ApiKey', namespace, name });
        return readKeyClientConfig(context, { kube, key, keyValue: null });
      },
    }),
  ];
}
