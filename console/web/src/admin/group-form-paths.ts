/** The Group form's fields by API path (where refusals are placed), and what its sections share. */
import type { GroupForm } from './group-form-state.js';

export const PATHS = [
  'name',
  'spec.platform',
  'spec.description',
  'spec.rateMultiplier',
  'spec.upstreamRefs',
  'spec.allowedNamespaces',
  'spec.allowedNamespaces.selector.matchLabels',
  'spec.allowedNamespaces.selector.matchExpressions',
  'spec.models',
  'spec.pricing.fallback',
  'spec.pricing.overrides',
  'spec.sessionAffinity',
  'spec.sessionAffinity.ttlSeconds',
] as const;

export type GroupPath = (typeof PATHS)[number];

/** What each section of the Group form gets: the input, a change to it, a field's refusal. */
export interface GroupSectionProps {
  form: GroupForm;
  update: (change: Partial<GroupForm>) => void;
  error: (path: GroupPath) => string | undefined;
}
