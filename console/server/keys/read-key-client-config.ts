/**
 * A key's client configuration, read as the signed-in user: the key's Group gives the platform
 * (reading it needs `get` on Groups, e.g. `tollgate-group-reader`; the key's status does not carry
 * the platform, and the console does not read Groups with its own identity, so RBAC stays the only
 * judge), `--gateway-url` the address. The value is given only where the caller has it (creation,
 * rotation); otherwise the configuration holds the placeholder.
 */
import type { ApiKey, Group } from '../../../crds/schema/resources.js';
import {
  generateClientConfig,
  type ClientConfig,
} from '../client-config/generate-client-config.js';
import type { ConsoleContext } from '../console-context.js';
import { ConsoleError, isConsoleError } from '../console-error.js';
import type { UserKube } from '../kubernetes/user-kube.js';

export async function readKeyClientConfig(
  context: ConsoleContext,
  options: { kube: UserKube; key: ApiKey; keyValue: string | null },
): Promise<ClientConfig> {
  const { kube, key } = options;
  const gatewayUrl = context.config.gatewayUrl;
  if (gatewayUrl === undefined) {
    throw new ConsoleError(
      'CONFLICT',
      'The console has no gateway URL: start it with --gateway-url ' +
        '(TOLLGATE_CONSOLE_GATEWAY_URL), the address clients use to reach the gateway.',
    );
  }
  const groupName = key.spec.groupName;
  if (groupName === undefined) {
    throw new ConsoleError(
      'CONFLICT',
      `The key ${key.metadata.name} has no group: give it one to learn its platform.`,
    );
  }
  let group: Group;
  try {
    group = await kube.get<Group>({ kind: 'Group', name: groupName });
  } catch (error) {
    if (isConsoleError(error) && error.statusCode === 404) {
      throw new ConsoleError('CONFLICT', `The key's group ${groupName} does not exist.`);
    }
    if (isConsoleError(error) && error.code === 'FORBIDDEN') {
      throw new ConsoleError(
        'FORBIDDEN',
        `Reading the key's group ${groupName} (its platform) needs get on Groups ` +
          `(ClusterRole tollgate-group-reader): ${error.message}`,
        { cause: error },
      );
    }
    throw error;
  }
  return generateClientConfig({
    platform: group.spec.platform,
    gatewayUrl,
    keyValue: options.keyValue,
    keyName: key.spec.displayName ?? key.metadata.name,
    // The console's own address as people open it (its first public origin, else on loopback).
    consoleUrl: context.permittedOrigins()[0],
  });
}

/** For the creation and rotation answers: the configuration with the value, or null. */
export async function keyClientConfigOrNull(
  context: ConsoleContext,
  options: { kube: UserKube; key: ApiKey; keyValue: string },
): Promise<ClientConfig | null> {
  try {
    return await readKeyClientConfig(context, options);
  } catch (error) {
    if (isConsoleError(error)) return null;
    throw error;
  }
}
