import { describe, expect, it } from 'vitest';
import { OIDC_COOKIE, readCookie, serializeCookie, SESSION_COOKIE } from './cookies.js';

const id = 'A'.repeat(43);

describe('cookies', () => {
  it('reads the named cookie among others, with spaces around', () => {
    expect(readCookie(`a=1; ${SESSION_COOKIE}=${id}; b=2`, SESSION_COOKIE)).toBe(id);
    expect(readCookie(`  ${SESSION_COOKIE} = ${id} `, SESSION_COOKIE)).toBe(id);
    expect(readCookie(`${OIDC_COOKIE}=x-1_Y; ${SESSION_COOKIE}=${id}`, OIDC_COOKIE)).toBe('x-1_Y');
  });

  it('answers undefined when the cookie is absent or the header is missing', () => {
    expect(readCookie(undefined, SESSION_COOKIE)).toBeUndefined();
    expect(readCookie('', SESSION_COOKIE)).toBeUndefined();
    expect(readCookie('other=1; novalue', SESSION_COOKIE)).toBeUndefined();
    expect(readCookie(`x${SESSION_COOKIE}=${id}`, SESSION_COOKIE)).toBeUndefined();
  });

  it('takes the first of repeated cookies', () => {
    expect(readCookie(`${SESSION_COOKIE}=first; ${SESSION_COOKIE}=second`, SESSION_COOKIE)).toBe(
      'first',
    );
  });

  it('refuses values that are not opaque ids (empty, quoted, other characters, too long)', () => {
    for (const value of ['', '"abc"', 'a b', 'a%20b', 'a.b', 'a=b', 'x'.repeat(129)]) {
      expect(readCookie(`${SESSION_COOKIE}=${value}`, SESSION_COOKIE), value).toBeUndefined();
    }
  });

  it('writes HttpOnly, SameSite=Lax, Path=/ and Max-Age; Secure only when asked', () => {
    expect(serializeCookie(SESSION_COOKIE, id, { secure: false, maxAge: 3600 })).toBe(
      `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600`,
    );
    expect(serializeCookie(SESSION_COOKIE, '', { secure: true, maxAge: 0 })).toBe(
      `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure`,
    );
  });
});
