import type { FlagSpec } from './flag-spec.js';

export const SIMULATE_FLAGS: readonly FlagSpec[] = [
  { name: 'port', value: 'PORT', fallback: '0 (any free port)', about: 'Listening port' },
  { name: 'host', value: 'HOST', fallback: '127.0.0.1', about: 'Listening address' },
  {
    name: 'credential',
    value: 'VALUE',
    fallback: 'any',
    about: 'The one upstream credential to accept',
  },
];
