/** `tollgate local` configuration: flags and `TOLLGATE_*` environment variables, parsed once. */
import { parseArgs } from 'node:util';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);

const configSchema = z.object({
  dataDirectory: z.string().min(1),
  host: z.string().min(1),
  port,
  apiPort: port,
});

export type LocalConfig = Readonly<z.infer<typeof configSchema>>;

export function parseLocalConfig(
  args: readonly string[],
  environment: Readonly<Record<string, string | undefined>>,
): LocalConfig {
  const { values } = parseArgs({
    args: [...args],
    options: {
      data: { type: 'string' },
      port: { type: 'string' },
      'api-port': { type: 'string' },
      host: { type: 'string' },
    },
    strict: true,
  });
  const gatewayPort = port.parse(values.port ?? environment.TOLLGATE_PORT ?? '8080');
  const result = configSchema.safeParse({
    dataDirectory: values.data ?? environment.TOLLGATE_DATA_DIR ?? './.tollgate',
    host: values.host ?? environment.TOLLGATE_HOST ?? '127.0.0.1',
    port: gatewayPort,
    apiPort:
      values['api-port'] ??
      environment.TOLLGATE_API_PORT ??
      (gatewayPort === 0 ? 0 : gatewayPort + 1),
  });
  if (!result.success) {
    throw new Error(`invalid configuration: ${z.prettifyError(result.error)}`);
  }
  return Object.freeze(result.data);
}
