/**
 * The Temporal CLI release this project builds when no `temporal` binary is found.
 * The one place the version is pinned: the install step, the cache path and the docs read it from here.
 * Newer tags carry a `replace` directive that `go install pkg@version` refuses, so 1.5.1 is the
 * newest one that builds from a clean machine with the Go module proxy alone.
 */
export const TEMPORAL_CLI_VERSION = '1.5.1';

/** The Go package path `go install` builds the CLI from. */
export const TEMPORAL_CLI_GO_PACKAGE = 'github.com/temporalio/cli/cmd/temporal';
