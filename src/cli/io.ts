/**
 * What every subcommand is written against: its arguments, where it
 * writes, and where the program was built from; and the two ways a
 * subcommand ends that all of them share — a usage error (exit 2), and a
 * fact's outcome printed as the server's tool returns it (exit 0 for an
 * answer, 1 for a refusal).
 *
 * @module
 */
import type { z } from "zod";
import { describeIssues, type Outcome } from "../contracts/mod.ts";

/** One run of a subcommand. */
export interface CommandIo {
  /** The arguments after the subcommand's name. */
  readonly args: readonly string[];
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /**
   * The repository this program was built from (the folder holding
   * nazm-repo.json): what `--docs` defaults to. The entry point knows it;
   * the layers below are always told.
   */
  readonly repository: string;
}

/** One entry of the command table (src/cli/main.ts). */
export interface Subcommand {
  /** One line for the list of subcommands. */
  readonly summary: string;
  /** The usage block, as the subcommand prints it on a usage error. */
  readonly usage: string;
  /** What `nazm help NAME` adds: arguments, options, output, exit status. */
  readonly help: string;
  /** Its exit status; a command that runs a program answers asynchronously. */
  readonly run: (io: CommandIo) => number | Promise<number>;
}

/** Prints `nazm <command>: <problem>` and the usage line; exit status 2. */
export function usageError(io: CommandIo, command: string, problem: string, usage: string): number {
  io.stderr(`nazm ${command}: ${problem}\nusage: nazm ${usage}\n`);
  return 2;
}

/**
 * Prints an outcome's value exactly as the server's tool carries it (its
 * structured content), one line; 0 for an answer, 1 for a refusal.
 */
export function printOutcome(io: CommandIo, outcome: Outcome<unknown>): number {
  io.stdout(JSON.stringify(outcome.value) + "\n");
  return outcome.kind === "answer" ? 0 : 1;
}

/**
 * The tool's arguments built from the command line, checked by the tool's
 * own input schema — the one the server's gate checks — so the command line
 * accepts exactly what the server accepts. A problem is one line, for a
 * usage error.
 */
export function toolArguments<Input extends z.ZodType>(
  input: Input,
  value: unknown,
): { readonly kind: "valid"; readonly value: z.output<Input> } | {
  readonly kind: "invalid";
  readonly problem: string;
} {
  const parsed = input.safeParse(value);
  if (parsed.success) return { kind: "valid", value: parsed.data };
  return { kind: "invalid", problem: describeIssues(parsed.error).summary };
}
