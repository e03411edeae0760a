import { describe, expect, it } from 'vitest';
import { parseLocalConfig } from './local-config.js';

describe('parseLocalConfig', () => {
  it('defaults to ./.tollgate, 127.0.0.1, 8080 and the API on the next port', () => {
    expect(parseLocalConfig([], {})).toEqual({
      dataDirectory: './.tollgate',
      host: '127.0.0.1',
      port: 8080,
      apiPort: 8081,
    });
  });

  it('reads the environment, and flags win over it', () => {
    const environment = {
      TOLLGATE_DATA_DIR: '/env/data',
      TOLLGATE_PORT: '9000',
      TOLLGATE_API_PORT: '7000',
      TOLLGATE_HOST: '127.0.0.2',
    };
    expect(parseLocalConfig([], environment)).toEqual({
      dataDirectory: '/env/data',
      host: '127.0.0.2',
      port: 9000,
      apiPort: 7000,
    });
    expect(parseLocalConfig(['--data', '/flag', '--port', '9100'], environment)).toMatchObject({
      dataDirectory: '/flag',
      port: 9100,
      apiPort: 7000,
    });
    expect(parseLocalConfig(['--port', '9100'], {})).toMatchObject({ apiPort: 9101 });
  });

  it('refuses bad ports and unknown flags', () => {
    expect(() => parseLocalConfig(['--port', 'eighty'], {})).toThrow();
    expect(() => parseLocalConfig([], { TOLLGATE_API_PORT: '70000' })).toThrow(/apiPort/);
    expect(() => parseLocalConfig(['--nope'], {})).toThrow(/Unknown option/);
  });
});
