import { describeOperatorScenarios } from './operator-scenarios.js';

describeOperatorScenarios('memory', () => '');
