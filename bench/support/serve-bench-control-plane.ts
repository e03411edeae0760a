/**
 * Child process of the side-by-side bench, target E: the Kubernetes API the deployed operator
 * reads, here Tollgate's own control plane (`control-plane/start-control-plane.ts`, as `tollgate
 * local` starts it) on a private data folder (argv[2]) and a free port. Reports its URL and the
 * kubeconfig it wrote; SIGTERM closes it.
 */
import { startControlPlane } from '../../control-plane/start-control-plane.js';

const dataDirectory = process.argv[2];
if (dataDirectory === undefined)
  throw new Error('usage: serve-bench-control-plane.ts <data folder>');
const controlPlane = await startControlPlane({ dataDirectory, host: '127.0.0.1', port: 0 });
process.send?.({
  type: 'ready',
  url: controlPlane.apiUrl,
  kubeconfigPath: controlPlane.kubeconfigPath,
});
await new Promise<void>((resolve) => {
  process.once('SIGTERM', resolve);
  process.once('SIGINT', resolve);
  process.once('disconnect', resolve);
});
await controlPlane.close();
process.exit(0);
