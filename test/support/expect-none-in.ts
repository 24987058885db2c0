/** Expects none of `secrets` in any of `places` (what a place is called → its text), naming where one was found. */
export function expectNoneIn(secrets: readonly string[], places: Record<string, string>): void {
  for (const secret of secrets) {
    for (const [where, haystack] of Object.entries(places)) {
      expect({ where, found: haystack.includes(secret) }).toEqual({ where, found: false });
    }
  }
}
