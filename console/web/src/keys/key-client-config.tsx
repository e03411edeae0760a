/** The key page's "Use this key": its client configuration with the placeholder for the value. */
import { useQuery } from '@tanstack/react-query';
import { ErrorNote } from '../ui/error-note.js';
import { keyQueries } from './key-queries.js';
import { UseKeyPanel } from './use-key-panel.js';

/** The value is never read back, so the configuration carries `<your-tollgate-key>`. */
export function KeyClientConfig(props: { namespace: string; name: string }) {
  const config = useQuery({ ...keyQueries.clientConfig(props), retry: false });
  if (config.error !== null) return <ErrorNote error={config.error} />;
  if (config.data === undefined) return null;
  return <UseKeyPanel config={config.data} />;
}
