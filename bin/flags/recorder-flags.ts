import {
  LOG_LEVEL_FLAG,
  METRICS_HOST_FLAG,
  REDIS_PREFIX_FLAG,
  type FlagSpec,
} from './flag-spec.js';

export const RECORDER_FLAGS: readonly FlagSpec[] = [
  {
    name: 'redis-url',
    value: 'URL',
    env: 'REDIS_URL',
    about: 'Redis holding the store and its usage streams',
  },
  {
    name: 'redis-cluster-nodes',
    value: 'LIST',
    env: 'TOLLGATE_REDIS_CLUSTER_NODES',
    about: 'host:port seeds of a Redis Cluster (instead of --redis-url)',
  },
  REDIS_PREFIX_FLAG,
  {
    name: 'database-url',
    value: 'URL',
    env: 'TOLLGATE_DATABASE_URL',
    fallback: 'required',
    about: 'PostgreSQL of the ledger',
  },
  {
    name: 'retention-days',
    value: 'N',
    env: 'TOLLGATE_RETENTION_DAYS',
    fallback: '90',
    about: 'Days of records kept',
  },
  {
    name: 'time-zone',
    value: 'ZONE',
    env: 'TOLLGATE_TIME_ZONE',
    fallback: 'UTC',
    about: 'Time zone of usage days',
  },
  {
    name: 'metrics-port',
    value: 'PORT',
    env: 'TOLLGATE_METRICS_PORT',
    fallback: '9092',
    about: 'Metrics and liveness',
  },
  METRICS_HOST_FLAG,
  {
    name: 'consumer',
    value: 'NAME',
    env: 'TOLLGATE_RECORDER_CONSUMER',
    fallback: 'the hostname',
    about: 'Consumer name, unique per replica',
  },
  {
    name: 'batch-size',
    value: 'N',
    env: 'TOLLGATE_RECORDER_BATCH_SIZE',
    fallback: '500',
    about: 'Records per ledger transaction',
  },
  LOG_LEVEL_FLAG,
];
