// Argument parsing for the utilities, as getopt does it: clustered short
// options (`-la`), option values attached or separate (`-n5`, `-n 5`), `--`
// ending the options, and long options given as aliases (`--lines=5`).

export interface ParsedOptions {
  /** Each option given, by its short letter: the value for options taking one, '' otherwise (the last one wins). */
  readonly flags: Map<string, string>;
  /** Every value an option taking one was given, in order (`grep -e a -e b`). */
  readonly all: Map<string, string[]>;
  readonly operands: string[];
  /** The unknown option or missing value, as the message's subject. */
  readonly error?: string;
}

export interface OptionSpec {
  /** Letters of options without a value. */
  readonly flags?: string;
  /** Letters of options taking a value. */
  readonly values?: string;
  /** Long names mapped to letters (a letter in `values` takes a value). */
  readonly long?: Readonly<Record<string, string>>;
  /** Options may follow operands (GNU style); off for commands that run other commands. */
  readonly permute?: boolean;
  /** `-5` means `-n 5` (head, tail). */
  readonly numberOption?: string;
}

export function parseOptions(args: readonly string[], spec: OptionSpec): ParsedOptions {
  const flags = new Map<string, string>();
  const all = new Map<string, string[]>();
  const operands: string[] = [];
  const set = (letter: string, value: string): void => {
    flags.set(letter, value);
    all.set(letter, [...(all.get(letter) ?? []), value]);
  };
  const takesValue = (letter: string): boolean => (spec.values ?? '').includes(letter);
  const known = (letter: string): boolean => (spec.flags ?? '').includes(letter) || takesValue(letter);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--') && spec.long) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      const letter = spec.long[name];
      if (letter === undefined) return { flags, all, operands, error: `unrecognized option '${arg}'` };
      if (takesValue(letter)) {
        const value = inline ?? args[++i];
        if (value === undefined) return { flags, all, operands, error: `option '${arg}' requires an argument` };
        set(letter, value);
      } else set(letter, '');
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      if (spec.numberOption && /^-[0-9]+$/.test(arg)) {
        set(spec.numberOption, arg.slice(1));
        continue;
      }
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j]!;
        if (!known(letter)) return { flags, all, operands, error: `invalid option -- '${letter}'` };
        if (takesValue(letter)) {
          const value = j + 1 < arg.length ? arg.slice(j + 1) : args[++i];
          if (value === undefined) return { flags, all, operands, error: `option requires an argument -- '${letter}'` };
          set(letter, value);
          break;
        }
        set(letter, '');
      }
      continue;
    }
    if (spec.permute === false) {
      operands.push(...args.slice(i));
      break;
    }
    operands.push(arg);
  }
  return { flags, all, operands };
}
