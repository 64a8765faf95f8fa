/**
 * The server's log: one line per event on stderr, never stdout (stdout
 * carries protocol messages only). The level comes from the environment
 * variable NAZM_LOG (error | warn | info | debug; default warn), read once.
 *
 * @module
 */

/** Log levels, most severe first. */
export const LOG_LEVELS = ["error", "warn", "info", "debug"] as const;
/** One log level. */
export type LogLevel = typeof LOG_LEVELS[number];

/** A logger bound to a level. */
export interface Logger {
  readonly level: LogLevel;
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

const encoder = new TextEncoder();

/**
 * Reads NAZM_LOG. An unset variable gives warn; an unknown value gives warn
 * and a note saying so (returned, for the caller to log once).
 */
export function logLevelFromEnv(): { level: LogLevel; note?: string } {
  let value: string | undefined;
  try {
    value = Deno.env.get("NAZM_LOG");
  } catch {
    return { level: "warn" };
  }
  if (value === undefined || value === "") return { level: "warn" };
  const lower = value.toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(lower)) {
    return { level: lower as LogLevel };
  }
  return {
    level: "warn",
    note: `NAZM_LOG=${value} is not one of ${LOG_LEVELS.join(", ")}; using warn`,
  };
}

/** A logger writing `nazm-mcp: <level>: <message>` lines to stderr. */
export function createLogger(level: LogLevel): Logger {
  const rank = LOG_LEVELS.indexOf(level);
  const emit = (at: LogLevel, message: string) => {
    if (LOG_LEVELS.indexOf(at) > rank) return;
    try {
      Deno.stderr.writeSync(encoder.encode(`nazm-mcp: ${at}: ${message}\n`));
    } catch {
      // stderr gone: nothing else to tell
    }
  };
  return {
    level,
    error: (message) => emit("error", message),
    warn: (message) => emit("warn", message),
    info: (message) => emit("info", message),
    debug: (message) => emit("debug", message),
  };
}
