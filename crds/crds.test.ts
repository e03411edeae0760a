import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toCrdYaml } from './crd-yaml.js';
import { renderAllCrds } from './render-crds.js';
import { apiKeySpecSchema, groupSpecSchema } from './schema/resources.js';

describe('generated CRDs', () => {
  it.each(renderAllCrds())('crds/$fileName matches the schema source', ({ fileName, crd }) => {
    const committed = readFileSync(new URL(fileName, import.meta.url), 'utf8');
    expect(committed, 'run `npm run generate:crds` and commit the result').toBe(toCrdYaml(crd));
  });
});

describe('zod schemas from the same source', () => {
  it('applies the same defaults the API server applies', () => {
    const spec = groupSpecSchema.parse({ platform: 'Anthropic' });
    expect(spec.rateMultiplier).toBe(1);
    expect(spec.allowedNamespaces).toEqual({ from: 'All' });
    expect(apiKeySpecSchema.parse({}).secretKey).toBe('apiKey');
  });

  it.each([
    [{ limits: { quotaUSD: '-1' } }, 'limits'],
    [{ limits: { quotaUSD: '1.1234567' } }, 'limits'],
    [{ sourceRanges: { allow: ['not-an-ip'] } }, 'sourceRanges'],
    [{ sourceRanges: { deny: ['10.0.0.0/33'] } }, 'sourceRanges'],
  ])('refuses %j', (spec, path) => {
    const result = apiKeySpecSchema.safeParse(spec);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path[0]).toBe(path);
  });

  it.each(['10.0.0.0/8', '192.168.1.7', '2001:db8::/32', '::1', '::ffff:10.0.0.1'])(
    'accepts the address range %s',
    (range) => {
      expect(apiKeySpecSchema.safeParse({ sourceRanges: { allow: [range] } }).success).toBe(true);
    },
  );

  it.each(['0', '12', '0.5', '999999.999999'])('accepts the money value %s', (value) => {
    expect(apiKeySpecSchema.safeParse({ limits: { dailyUSD: value } }).success).toBe(true);
  });
});
