/**
 * Prometheus text exposition, as the dev server and the benchmark's workers serve it: the lines of
 * a metrics endpoint, and one label of a sample.
 */

/** The lines of the metrics endpoint `url` serves now. */
export async function metricLines(url: string): Promise<string[]> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return (await response.text()).split('\n');
}

/** The value of label `name` in a sample's labels (`a="x",b="y"`), if it has it. */
export function labelOf(labels: string, name: string): string | undefined {
  return new RegExp(`(?:^|,)${name}="([^"]*)"`).exec(labels)?.[1];
}
