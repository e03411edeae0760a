/** `tollgate local`: placeholder until the local control plane lands. */
export function run(): Promise<void> {
  return Promise.reject(new Error('local mode is not built yet'));
}
