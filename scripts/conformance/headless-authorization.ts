/**
 * The conformance suite's stand-in for a person at a browser: the suite's authorization endpoint
 * approves at once, answering with a redirect to the client's redirect URI that carries the code.
 * This user agent requests the authorization URL, does not follow the redirect (nothing listens at
 * the redirect URI), and takes the code (and the issuer, `iss`) from its `Location`, checking `state`.
 */
import type { InteractiveAuthorization } from '../../src/mcp/oauth/host-oauth-provider';

/** A loopback redirect URI nothing listens on: the code is read from the redirect itself. */
const REDIRECT_URL = 'http://127.0.0.1:3000/callback';

/** An interactive authorization that approves headlessly (see the module comment). */
export function headlessAuthorization(log: (line: string) => void): InteractiveAuthorization {
  return {
    redirectUrl: REDIRECT_URL,
    async onAuthorizationUrl(url: URL): Promise<URLSearchParams> {
      const response = await fetch(url, { redirect: 'manual' });
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (location === null) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
      const back = new URL(location, url);
      if (!back.href.startsWith(REDIRECT_URL)) throw new Error('the authorization endpoint redirected somewhere else than the redirect URI');
      const error = back.searchParams.get('error');
      if (error !== null) throw new Error(`the authorization was refused: ${error}`);
      const code = back.searchParams.get('code');
      if (code === null) throw new Error('the redirect carries no authorization code');
      if (back.searchParams.get('state') !== url.searchParams.get('state')) throw new Error('the redirect carries another state than the request');
      log('authorization approved headlessly');
      // All of it: the SDK checks the issuer (`iss`, RFC 9207) along with the code.
      return back.searchParams;
    },
  };
}
