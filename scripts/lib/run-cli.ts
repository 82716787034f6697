/**
 * Runs a command-line script's `main` and exits with its code; a failure prints one line (the
 * error's message, or what `describe` makes of it) and exits 1, without a stack for the user.
 */
export function runCli(main: () => Promise<number>, describe: (message: string, error: unknown) => string = (message) => message): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(describe(error instanceof Error ? error.message : String(error), error));
      process.exit(1);
    },
  );
}
