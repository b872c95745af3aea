/** Parsed `--name value` options of a command. */
export type Options = Record<string, string | undefined>;

/** What a command prints: `json` with --json, `text` otherwise. */
export interface CommandResult {
  json: unknown;
  text: string;
  /** The process exit status when the command ran but its verdict is a failure (default 0). */
  exitCode?: number;
}
