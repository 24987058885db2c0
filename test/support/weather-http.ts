import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { REPO_ROOT } from './repo';

/** The example weather server's entry (both protocol eras, stdio or HTTP). */
export const WEATHER_MAIN = path.join(REPO_ROOT, 'src/example-servers/weather/main.ts');

/** Starts the weather server over Streamable HTTP on a free port; resolves with its URL once it listens. */
export function startWeatherHttp(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', WEATHER_MAIN, '--http', '0'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const url = /weather-server listening on (http:\/\/\S+)/.exec(stderr)?.[1];
      if (url !== undefined) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`weather server exited (${String(code)}): ${stderr}`)));
  });
}
