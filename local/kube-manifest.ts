/** A Kubernetes object as the demo world writes it: kind, name, labels and the rest of its fields. */
export interface KubeManifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels: Record<string, string> };
  [field: string]: unknown;
}
