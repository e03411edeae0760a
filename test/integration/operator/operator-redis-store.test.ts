import { inject } from 'vitest';
import { describeOperatorScenarios } from './operator-scenarios.js';

describeOperatorScenarios('redis', () => inject('redisUrl'));
