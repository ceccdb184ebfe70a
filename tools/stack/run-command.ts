/**
 * Runs a command-line entry point: a failure prints its message (its stack when `stack`) and sets
 * exit code 1, so every command ends the same way.
 */
export function runCommand(main: () => Promise<void>, { stack = false } = {}): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (stack && error.stack) || error.message : error);
    process.exitCode = 1;
  });
}
