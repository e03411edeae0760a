/** Pure: label selectors (`=`, `==`, `!=`, `in`, `notin`, exists, `!key`) and field selectors. */
import { badRequest } from './api-errors.js';
import type { KubeObject } from './kube-object.js';
import { objectName, objectNamespace, stringMapField } from './kube-object.js';

export type Matcher = (object: KubeObject) => boolean;

function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of selector) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      terms.push(current.trim());
      current = '';
    } else {
      current += char;
    }
  }
  if (current.trim() !== '') terms.push(current.trim());
  return terms.filter((term) => term !== '');
}

function labelTerm(term: string): (labels: Record<string, string>) => boolean {
  const setMatch = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
  if (setMatch !== null) {
    const [, key = '', operator, list = ''] = setMatch;
    const values = list.split(',').map((value) => value.trim());
    return operator === 'in'
      ? (labels) => labels[key] !== undefined && values.includes(labels[key])
      : (labels) => labels[key] === undefined || !values.includes(labels[key]);
  }
  const compare = /^([^\s!=]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
  if (compare !== null) {
    const [, key = '', operator, value = ''] = compare;
    return operator === '!='
      ? (labels) => labels[key] !== value
      : (labels) => labels[key] === value;
  }
  const exists = /^(!?)([^\s!=(),]+)$/.exec(term);
  if (exists !== null) {
    const [, negated, key = ''] = exists;
    return negated === '!' ? (labels) => !(key in labels) : (labels) => key in labels;
  }
  throw badRequest(`unable to parse requirement: ${term}`);
}

export function parseLabelSelector(selector: string | null): Matcher {
  if (selector === null || selector.trim() === '') return () => true;
  const terms = splitTerms(selector).map(labelTerm);
  return (object) => {
    const labels = stringMapField(object.metadata, 'labels');
    return terms.every((term) => term(labels));
  };
}

const fieldReaders: Record<string, (object: KubeObject) => string> = {
  'metadata.name': (object) => objectName(object),
  'metadata.namespace': (object) => objectNamespace(object) ?? '',
};

/** Unknown fields are refused, except where `lenient` (Events: describe asks for involvedObject.*). */
export function parseFieldSelector(selector: string | null, lenient: boolean): Matcher {
  if (selector === null || selector.trim() === '') return () => true;
  const terms: Matcher[] = [];
  for (const term of splitTerms(selector)) {
    const match = /^([^!=]+)(==|=|!=)(.*)$/.exec(term);
    if (match === null) throw badRequest(`invalid selector: '${term}'`);
    const [, field = '', operator, value = ''] = match;
    const read = fieldReaders[field];
    if (read === undefined) {
      if (lenient) continue;
      throw badRequest(`field label not supported: ${field}`);
    }
    terms.push(
      operator === '!=' ? (object) => read(object) !== value : (object) => read(object) === value,
    );
  }
  return (object) => terms.every((term) => term(object));
}
