import { listenForCallback } from '../../../src/mcp/oauth/loopback-callback';

describe('listenForCallback', () => {
  test('hands over the code of the redirect with the expected state; ignores one with another state', async () => {
    const callback = await listenForCallback(0);
    try {
      expect(callback.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const response = callback.response('state-1', 5000);
      const forged = await fetch(`${callback.redirectUrl}?code=evil&state=other`);
      expect(forged.status).toBe(400);
      const real = await fetch(`${callback.redirectUrl}?code=good-code&state=state-1&iss=${encodeURIComponent('https://as.example')}`);
      expect(real.status).toBe(200);
      expect(await real.text()).toContain('Login complete');
      const params = await response;
      // The whole redirect: the SDK checks the issuer (RFC 9207) along with the code.
      expect([params.get('code'), params.get('iss')]).toEqual(['good-code', 'https://as.example']);
    } finally {
      await callback.close();
    }
  });

  test('an error redirect fails the login with the server’s words; no redirect at all times out', async () => {
    const callback = await listenForCallback(0);
    try {
      const refused = callback.response('s', 5000);
      await fetch(`${callback.redirectUrl}?error=access_denied&error_description=user%20said%20no&state=s`);
      await expect(refused).rejects.toThrow('login failed: the authorization server answered "access_denied": user said no');
      await expect(callback.response('s', 50)).rejects.toThrow(/no authorization came back/);
    } finally {
      await callback.close();
    }
  });
});
