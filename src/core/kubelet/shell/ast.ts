// The syntax tree the shell's parser (parser.ts) builds and its interpreter
// (interpreter.ts) walks: POSIX sh's grammar (lists, and-or lists,
// pipelines, compound commands, functions) with words kept as parts so that
// expansion knows what was quoted.

/** A piece of a word. `quoted` parts are neither field-split nor globbed. */
export type WordPart =
  | { readonly kind: 'literal'; readonly text: string; readonly quoted: boolean }
  | {
      readonly kind: 'parameter';
      readonly name: string;
      readonly quoted: boolean;
      /** `${#name}` */
      readonly length?: boolean;
      /** `${name<op>word}`: one of - = ? + (with or without a leading ':'), # ## % %% */
      readonly op?: string;
      readonly arg?: Word;
    }
  | { readonly kind: 'command'; readonly script: Script; readonly quoted: boolean }
  | { readonly kind: 'arithmetic'; readonly expression: Word; readonly quoted: boolean }
  /** `~` or `~user` at the start of a word. */
  | { readonly kind: 'tilde'; readonly user: string };

export interface Word {
  readonly parts: readonly WordPart[];
}

export type RedirectOp = '>' | '>>' | '>|' | '<' | '<>' | '>&' | '<&' | '<<' | '<<-';

export interface Redirect {
  readonly fd: number;
  readonly op: RedirectOp;
  /** The file, the fd to duplicate (`2>&1`), or a here-document's body. */
  readonly target: Word;
  /** A here-document whose delimiter was quoted: its body is not expanded. */
  readonly literalBody?: boolean;
}

export interface Assignment {
  readonly name: string;
  readonly value: Word;
}

export interface SimpleCommand {
  readonly type: 'simple';
  readonly assignments: readonly Assignment[];
  readonly words: readonly Word[];
  readonly redirects: readonly Redirect[];
  readonly line: number;
}

export interface Pipeline {
  readonly type: 'pipeline';
  readonly commands: readonly Command[];
  readonly negated: boolean;
}

export interface AndOr {
  readonly type: 'and-or';
  readonly first: Pipeline;
  readonly rest: readonly { readonly op: '&&' | '||'; readonly pipeline: Pipeline }[];
}

export interface ListItem {
  readonly command: AndOr;
  readonly background: boolean;
}

/** A sequence of and-or lists (`a; b & c`). */
export interface Script {
  readonly items: readonly ListItem[];
}

interface Compound {
  readonly redirects: readonly Redirect[];
}

export interface Group extends Compound {
  readonly type: 'group';
  readonly body: Script;
}

export interface Subshell extends Compound {
  readonly type: 'subshell';
  readonly body: Script;
}

export interface If extends Compound {
  readonly type: 'if';
  readonly clauses: readonly { readonly condition: Script; readonly body: Script }[];
  readonly otherwise?: Script;
}

export interface Loop extends Compound {
  readonly type: 'loop';
  readonly until: boolean;
  readonly condition: Script;
  readonly body: Script;
}

export interface For extends Compound {
  readonly type: 'for';
  readonly name: string;
  /** undefined for `for x; do` (the positional parameters). */
  readonly items?: readonly Word[];
  readonly body: Script;
}

export interface Case extends Compound {
  readonly type: 'case';
  readonly subject: Word;
  readonly arms: readonly { readonly patterns: readonly Word[]; readonly body: Script }[];
}

export interface FunctionDefinition {
  readonly type: 'function';
  readonly name: string;
  readonly body: Command;
}

export type Command = SimpleCommand | Group | Subshell | If | Loop | For | Case | FunctionDefinition;
