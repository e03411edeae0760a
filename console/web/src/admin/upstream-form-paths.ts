/** The Upstream form's fields by API path (where refusals are placed), and what its sections share. */
import type { UpstreamForm } from './upstream-form-state.js';

export const PATHS = [
  'name',
  'spec.platform',
  'spec.baseURL',
  'spec.credentials',
  'spec.credentials.type',
  'spec.credentials.apiKey',
  'apiKeyValue',
  'spec.credentials.googleOAuth',
  'spec.credentials.googleOAuth.clientID',
  'spec.credentials.googleOAuth.tokenURL',
  'spec.credentials.googleOAuth.projectID',
  'googleOAuthSecret',
  'spec.maxConcurrentRequests',
  'spec.requestsPerMinute',
  'spec.modelOverrides',
  'spec.chatCompletions',
] as const;

export type UpstreamPath = (typeof PATHS)[number];

/** What each section of the Upstream form gets: the input, a change to it, the fields' refusal. */
export interface UpstreamSectionProps {
  form: UpstreamForm;
  update: (change: Partial<UpstreamForm>) => void;
  /** The first refusal placed on any of these paths. */
  error: (...paths: UpstreamPath[]) => string | undefined;
}
