/**
 * The command line's one argument parser: `--name VALUE`, `--name=VALUE`,
 * boolean `--name`, and positionals, each declared by the subcommand. A
 * mistake is a message (the caller prints it with its usage, exit 2).
 *
 * @module
 */

export interface ArgSpec {
  /** Options that take a value. */
  readonly values?: readonly string[];
  /** Options that are on or off. */
  readonly switches?: readonly string[];
  /** Names of the positionals, in order; all required unless listed in `optional`. */
  readonly positionals: readonly string[];
  readonly optional?: readonly string[];
  /** The name of what follows the positionals, one or more (`SEED...`); none when absent. */
  readonly rest?: string;
  /** Short spellings of options: `{ "-o": "output" }` makes `-o X` mean `--output X`. */
  readonly short?: Readonly<Record<string, string>>;
}

export interface ParsedArgs {
  readonly values: ReadonlyMap<string, string>;
  readonly switches: ReadonlySet<string>;
  readonly positionals: ReadonlyMap<string, string>;
  /** What follows the positionals when the spec names a `rest`. */
  readonly rest: readonly string[];
}

/** Parses `args` by `spec`; returns a one-line problem on a usage error. */
export function parseArgs(args: readonly string[], spec: ArgSpec): ParsedArgs | string {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const short = spec.short !== undefined && Object.hasOwn(spec.short, args[i])
      ? spec.short[args[i]]
      : undefined;
    const arg = short !== undefined ? `--${short}` : args[i];
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      if (spec.values?.includes(name)) {
        const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
        if (value === undefined || value === "") return `--${name} needs a value`;
        if (values.has(name)) return `--${name} is given twice`;
        values.set(name, value);
      } else if (spec.switches?.includes(name) && eq < 0) {
        switches.add(name);
      } else {
        return `unknown option \`${arg}\``;
      }
    } else if (arg.startsWith("-") && arg !== "-") {
      return `unknown option \`${arg}\``;
    } else {
      positionals.push(arg);
    }
  }
  if (spec.rest === undefined && positionals.length > spec.positionals.length) {
    return `unexpected argument \`${positionals[spec.positionals.length]}\``;
  }
  const named = new Map<string, string>();
  for (const [i, name] of spec.positionals.entries()) {
    if (i < positionals.length) named.set(name, positionals[i]);
    else if (!spec.optional?.includes(name)) return `missing ${name}`;
  }
  const rest = positionals.slice(spec.positionals.length);
  if (spec.rest !== undefined && rest.length === 0) return `missing ${spec.rest}`;
  return { values, switches, positionals: named, rest };
}
