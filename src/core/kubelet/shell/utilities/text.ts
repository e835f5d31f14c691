// Text filters: wc, grep, cut, tr, sed, sort, uniq, as busybox's (the
// common options; output formats and exit statuses as theirs). grep and
// sed read standard input line by line, so `tail -f log | grep x` prints as
// lines arrive.

import { byteLength } from '../bytes';
import type { CommandContext } from '../command';
import { parseOptions } from './options';
import { basicToJsRegex, extendedToJsRegex, fixedToJsRegex } from './regex';
import { readInputs } from './files';

/** Calls `each` with every line of the inputs ('-' is standard input, read as it comes). */
async function forEachLine(
  ctx: CommandContext,
  files: readonly string[],
  name: string,
  each: (line: string, file: string, lineNumber: number) => Promise<boolean | void>,
  style: 'open' | 'plain' = 'open',
): Promise<number> {
  let status = 0;
  for (const file of files.length === 0 ? ['-'] : files) {
    let lineNumber = 0;
    if (file === '-') {
      for (;;) {
        const line = await ctx.streams.stdin.readLine();
        if (line === null) break;
        if ((await each(line, file, ++lineNumber)) === false) return status;
      }
      continue;
    }
    const [input] = await readInputs(ctx, [file], name, style);
    if (input!.error) {
      await ctx.err(input!.error + '\n');
      status = 2;
      continue;
    }
    const text = input!.text!;
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    for (const line of lines) if ((await each(line, file, ++lineNumber)) === false) return status;
  }
  return status;
}

export async function wc(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, { flags: 'lwcmL', long: { lines: 'l', words: 'w', bytes: 'c', chars: 'm' } });
  if (parsed.error) {
    await ctx.err(`wc: ${parsed.error}\n`);
    return 1;
  }
  let selected = ['l', 'w', 'c', 'm', 'L'].filter((flag) => parsed.flags.has(flag));
  if (selected.length === 0) selected = ['l', 'w', 'c'];
  const order = ['l', 'w', 'm', 'c', 'L'].filter((flag) => selected.includes(flag));
  const inputs = await readInputs(ctx, parsed.operands, 'wc');
  const totals: Record<string, number> = { l: 0, w: 0, c: 0, m: 0, L: 0 };
  let status = 0;
  const single = order.length === 1 && parsed.operands.length <= 1;
  const format = (counts: Record<string, number>, name: string | undefined): string =>
    order.map((flag, index) => (index === 0 && single ? String(counts[flag]) : `${index > 0 ? ' ' : ''}${String(counts[flag]).padStart(9)}`)).join('') + (name === undefined ? '\n' : ` ${name}\n`);
  for (const input of inputs) {
    if (input.error) {
      await ctx.err(input.error + '\n');
      status = 1;
      continue;
    }
    const text = input.text!;
    const counts = {
      l: (text.match(/\n/g) ?? []).length,
      w: text.split(/\s+/).filter((word) => word !== '').length,
      c: byteLength(text),
      m: [...text].length,
      L: Math.max(0, ...text.split('\n').map((line) => line.length)),
    };
    for (const key of Object.keys(totals)) totals[key] = key === 'L' ? Math.max(totals[key]!, counts[key as 'l']) : totals[key]! + counts[key as 'l'];
    await ctx.out(format(counts, input.file === '-' ? undefined : input.file));
  }
  if (inputs.length > 1) await ctx.out(format(totals, 'total'));
  return status;
}

export async function grep(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, {
    flags: 'ivcqEFnolLhHswxrRz',
    values: 'ef',
    long: { 'ignore-case': 'i', 'invert-match': 'v', count: 'c', quiet: 'q', silent: 'q', 'extended-regexp': 'E', 'fixed-strings': 'F', 'line-number': 'n', 'only-matching': 'o', 'files-with-matches': 'l', 'word-regexp': 'w', 'line-regexp': 'x', regexp: 'e' },
  });
  if (parsed.error) {
    await ctx.err(`grep: ${parsed.error}\n`);
    return 2;
  }
  const f = parsed.flags;
  const operands = [...parsed.operands];
  let patterns = parsed.all.get('e') ?? [];
  if (parsed.flags.has('f')) {
    const text = ctx.io.fs.read(ctx.resolve(parsed.flags.get('f')!));
    if (text === undefined) {
      await ctx.err(`grep: ${parsed.flags.get('f')}: No such file or directory\n`);
      return 2;
    }
    patterns = [...patterns, ...text.split('\n').filter((line, index, all) => index < all.length - 1 || line !== '')];
  }
  if (patterns.length === 0) {
    const pattern = operands.shift();
    if (pattern === undefined) {
      await ctx.err('Usage: grep [-HhnlLoqvsrRiwFE] [-m N] [-A|B|C N] { PATTERN | -e PATTERN... | -f FILE... } [FILE]...\n');
      return 2;
    }
    patterns = pattern.split('\n');
  }
  const sources = patterns.map((pattern) => (f.has('F') ? fixedToJsRegex(pattern) : f.has('E') ? extendedToJsRegex(pattern) : basicToJsRegex(pattern)));
  let source = sources.map((s) => `(?:${s})`).join('|');
  if (f.has('w')) source = `(?<![A-Za-z0-9_])(?:${source})(?![A-Za-z0-9_])`;
  if (f.has('x')) source = `^(?:${source})$`;
  let regex: RegExp;
  try {
    regex = new RegExp(source, f.has('i') ? 'gi' : 'g');
  } catch {
    await ctx.err(`grep: bad regex '${patterns.join('\n')}'\n`);
    return 2;
  }
  const showNames = (operands.length > 1 || f.has('H')) && !f.has('h');
  const counts = new Map<string, number>();
  let matched = false;
  let quitEarly = false;
  const listed = new Set<string>();
  const status = await forEachLine(
    ctx,
    operands,
    'grep',
    async (line, file, lineNumber) => {
      regex.lastIndex = 0;
      const hit = regex.test(line) !== f.has('v');
      regex.lastIndex = 0;
      if (!hit) return;
      matched = true;
      if (f.has('q')) {
        quitEarly = true;
        return false;
      }
      counts.set(file, (counts.get(file) ?? 0) + 1);
      if (f.has('c') || f.has('L')) return;
      if (f.has('l')) {
        if (!listed.has(file)) {
          listed.add(file);
          await ctx.out(`${file === '-' ? '(standard input)' : file}\n`);
        }
        return;
      }
      const prefix = (showNames ? `${file === '-' ? '(standard input)' : file}:` : '') + (f.has('n') ? `${lineNumber}:` : '');
      if (f.has('o') && !f.has('v')) {
        for (const m of line.matchAll(regex)) if (m[0] !== '') await ctx.out(`${prefix}${m[0]}\n`);
      } else await ctx.out(`${prefix}${line}\n`);
    },
    'plain',
  );
  if (quitEarly) return 0;
  if (f.has('c')) {
    for (const file of operands.length === 0 ? ['-'] : operands) {
      await ctx.out(`${showNames ? `${file}:` : ''}${counts.get(file) ?? 0}\n`);
    }
  }
  if (f.has('L')) {
    for (const file of operands) if (!counts.has(file)) await ctx.out(`${file}\n`);
  }
  if (status === 2) return 2;
  return matched ? 0 : 1;
}

/** A field or character list (`1,3-5,7-`) as a predicate on 1-based positions. */
function parseList(text: string): ((n: number) => boolean) | undefined {
  const ranges: [number, number][] = [];
  for (const part of text.split(',')) {
    const match = /^([0-9]*)(-?)([0-9]*)$/.exec(part);
    if (!match || (match[1] === '' && match[3] === '')) return undefined;
    const from = match[1] ? Number(match[1]) : 1;
    const to = match[2] ? (match[3] ? Number(match[3]) : Infinity) : from;
    if (from < 1) return undefined;
    ranges.push([from, to]);
  }
  return (n) => ranges.some(([from, to]) => n >= from && n <= to);
}

export async function cut(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, { flags: 'sn', values: 'dfcb', long: { delimiter: 'd', fields: 'f', characters: 'c', bytes: 'b', 'only-delimited': 's' } });
  const list = parsed.flags.get('f') ?? parsed.flags.get('c') ?? parsed.flags.get('b');
  if (parsed.error || list === undefined) {
    await ctx.err(parsed.error ? `cut: ${parsed.error}\n` : 'cut: expected a list of bytes, characters, or fields\n');
    return 1;
  }
  const selected = parseList(list);
  if (!selected) {
    await ctx.err(`cut: invalid byte, character or field list\n`);
    return 1;
  }
  const delimiter = parsed.flags.get('d') ?? '\t';
  if (delimiter.length !== 1) {
    await ctx.err('cut: the delimiter must be a single character\n');
    return 1;
  }
  const byFields = parsed.flags.has('f');
  return forEachLine(ctx, parsed.operands, 'cut', async (line) => {
    if (!byFields) {
      await ctx.out([...line].filter((_, index) => selected(index + 1)).join('') + '\n');
      return;
    }
    if (!line.includes(delimiter)) {
      if (!parsed.flags.has('s')) await ctx.out(line + '\n');
      return;
    }
    await ctx.out(line.split(delimiter).filter((_, index) => selected(index + 1)).join(delimiter) + '\n');
  });
}

const TR_CLASSES: Readonly<Record<string, string>> = {
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  lower: 'abcdefghijklmnopqrstuvwxyz',
  digit: '0123456789',
  space: ' \t\n\r\f\v',
  blank: ' \t',
  alpha: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  alnum: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  punct: '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
  xdigit: '0123456789ABCDEFabcdef',
};

function expandTrSet(text: string): string[] {
  const chars: string[] = [];
  const unescaped: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '[' && text[i + 1] === ':') {
      const close = text.indexOf(':]', i + 2);
      const cls = close > 0 ? TR_CLASSES[text.slice(i + 2, close)] : undefined;
      if (cls !== undefined) {
        unescaped.push(...[...cls].map((x) => '\0class' + x));
        i = close + 1;
        continue;
      }
    }
    if (c === '\\' && i + 1 < text.length) {
      const n = text[++i]!;
      const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', f: '\f', v: '\v', a: '\x07', b: '\b' };
      if (/[0-7]/.test(n)) {
        const digits = /^[0-7]{1,3}/.exec(text.slice(i))![0];
        unescaped.push(String.fromCharCode(parseInt(digits, 8)));
        i += digits.length - 1;
      } else unescaped.push(map[n] ?? n);
      continue;
    }
    unescaped.push(c);
  }
  for (let i = 0; i < unescaped.length; i++) {
    const c = unescaped[i]!;
    if (c.startsWith('\0class')) {
      chars.push(c.slice(6));
      continue;
    }
    if (unescaped[i + 1] === '-' && i + 2 < unescaped.length && !unescaped[i + 2]!.startsWith('\0class')) {
      const from = c.charCodeAt(0);
      const to = unescaped[i + 2]!.charCodeAt(0);
      for (let code = from; code <= to; code++) chars.push(String.fromCharCode(code));
      i += 2;
      continue;
    }
    chars.push(c);
  }
  return chars;
}

export async function tr(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, { flags: 'dscC' });
  const [set1Text, set2Text] = parsed.operands;
  const del = parsed.flags.has('d');
  const squeeze = parsed.flags.has('s');
  if (parsed.error || set1Text === undefined || (!del && !squeeze && set2Text === undefined)) {
    await ctx.err(parsed.error ? `tr: ${parsed.error}\n` : 'Usage: tr [-cds] STRING1 [STRING2]\n');
    return 1;
  }
  const set1 = expandTrSet(set1Text);
  const set2 = set2Text !== undefined ? expandTrSet(set2Text) : [];
  const complement = parsed.flags.has('c') || parsed.flags.has('C');
  const inSet1 = (c: string): boolean => set1.includes(c) !== complement;
  const map = new Map<string, string>();
  if (!del && set2.length > 0 && !complement) {
    set1.forEach((c, index) => map.set(c, set2[Math.min(index, set2.length - 1)]!));
  }
  const squeezeSet = new Set(del ? set2 : set2.length > 0 ? set2 : set1);
  let last = '';
  for (;;) {
    const chunk = await ctx.streams.stdin.read();
    if (chunk === null) break;
    let out = '';
    for (const c of chunk) {
      let mapped: string;
      if (del && inSet1(c)) continue;
      if (!del && complement && set2.length > 0 && inSet1(c)) mapped = set2[set2.length - 1]!;
      else mapped = map.get(c) ?? c;
      if (squeeze && mapped === last && squeezeSet.has(mapped)) continue;
      out += mapped;
      last = mapped;
    }
    await ctx.out(out);
  }
  return 0;
}

interface SedCommand {
  readonly address1?: SedAddress;
  readonly address2?: SedAddress;
  readonly negate: boolean;
  readonly name: string;
  readonly regex?: RegExp;
  readonly replacement?: string;
  readonly global?: boolean;
  readonly occurrence?: number;
  readonly print?: boolean;
  readonly text?: string;
  active?: boolean;
}

type SedAddress = { readonly line: number } | { readonly last: true } | { readonly regex: RegExp };

class SedError extends Error {}

function parseSedScript(script: string, extended: boolean): SedCommand[] {
  const commands: SedCommand[] = [];
  let i = 0;
  const toRegex = (source: string, flags: string): RegExp => {
    try {
      return new RegExp(extended ? extendedToJsRegex(source) : basicToJsRegex(source), flags);
    } catch {
      throw new SedError(`bad regex '${source}'`);
    }
  };
  const readDelimited = (delimiter: string): string => {
    let out = '';
    while (i < script.length && script[i] !== delimiter) {
      if (script[i] === '\\' && i + 1 < script.length) {
        if (script[i + 1] === delimiter) out += delimiter;
        else out += script[i]! + script[i + 1]!;
        i += 2;
        continue;
      }
      out += script[i++];
    }
    if (script[i] !== delimiter) throw new SedError(`unmatched '${delimiter}'`);
    i++;
    return out;
  };
  const readAddress = (): SedAddress | undefined => {
    if (/[0-9]/.test(script[i] ?? '')) {
      const digits = /^[0-9]+/.exec(script.slice(i))![0];
      i += digits.length;
      return { line: Number(digits) };
    }
    if (script[i] === '$') {
      i++;
      return { last: true };
    }
    if (script[i] === '/' || script[i] === '\\') {
      const delimiter = script[i] === '\\' ? script[++i]! : '/';
      i++;
      return { regex: toRegex(readDelimited(delimiter), '') };
    }
    return undefined;
  };
  while (i < script.length) {
    while (i < script.length && /[\s;]/.test(script[i]!)) i++;
    if (i >= script.length) break;
    const address1 = readAddress();
    let address2: SedAddress | undefined;
    if (address1 && script[i] === ',') {
      i++;
      address2 = readAddress();
    }
    while (script[i] === ' ') i++;
    let negate = false;
    if (script[i] === '!') {
      negate = true;
      i++;
    }
    const name = script[i++];
    if (name === undefined) throw new SedError('missing command');
    switch (name) {
      case 's': {
        const delimiter = script[i++]!;
        const pattern = readDelimited(delimiter);
        const replacement = readDelimited(delimiter);
        let flags = '';
        let global = false;
        let print = false;
        let occurrence = 1;
        while (i < script.length && !/[\s;}]/.test(script[i]!)) {
          const flag = script[i++]!;
          if (flag === 'g') global = true;
          else if (flag === 'p') print = true;
          else if (flag === 'i' || flag === 'I') flags += 'i';
          else if (/[0-9]/.test(flag)) occurrence = Number(flag);
          else throw new SedError(`unknown option to 's'`);
        }
        commands.push({ address1, address2, negate, name, regex: toRegex(pattern, 'g' + flags), replacement, global, occurrence, print });
        break;
      }
      case 'y': {
        const delimiter = script[i++]!;
        const from = readDelimited(delimiter);
        const to = readDelimited(delimiter);
        commands.push({ address1, address2, negate, name, text: from + '\0' + to });
        break;
      }
      case 'a':
      case 'i':
      case 'c': {
        if (script[i] === '\\') i++;
        while (script[i] === ' ' || script[i] === '\n') i++;
        let end = script.indexOf('\n', i);
        if (end < 0) end = script.length;
        commands.push({ address1, address2, negate, name, text: script.slice(i, end) });
        i = end;
        break;
      }
      case 'p':
      case 'd':
      case 'q':
      case '=':
      case 'n':
      case 'N':
        commands.push({ address1, address2, negate, name });
        break;
      default:
        throw new SedError(`unsupported command ${name}`);
    }
  }
  return commands;
}

function expandReplacement(replacement: string, match: RegExpExecArray): string {
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    if (c === '\\' && i + 1 < replacement.length) {
      const n = replacement[++i]!;
      if (/[0-9]/.test(n)) out += match[Number(n)] ?? '';
      else if (n === 'n') out += '\n';
      else if (n === 't') out += '\t';
      else out += n;
    } else if (c === '&') out += match[0];
    else out += c;
  }
  return out;
}

export async function sed(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, { flags: 'nErsu', values: 'ef', long: { quiet: 'n', silent: 'n', expression: 'e', 'regexp-extended': 'E', file: 'f' } });
  // -i takes an optional suffix, which getopt cannot say: handled apart.
  const inPlace = ctx.args.some((arg) => /^-[a-zA-Z]*i/.test(arg) && !arg.startsWith('--'));
  const args = inPlace ? ctx.args.map((arg) => (/^-[a-zA-Z]*i/.test(arg) ? arg.replace(/i.*$/, '').replace(/^-$/, '') : arg)).filter((arg) => arg !== '') : ctx.args;
  const options = inPlace ? parseOptions(args, { flags: 'nErsu', values: 'ef', long: { quiet: 'n', expression: 'e' } }) : parsed;
  if (options.error) {
    await ctx.err(`sed: ${options.error}\n`);
    return 1;
  }
  const operands = [...options.operands];
  let scripts = options.all.get('e') ?? [];
  if (options.flags.has('f')) {
    const text = ctx.io.fs.read(ctx.resolve(options.flags.get('f')!));
    if (text === undefined) {
      await ctx.err(`sed: can't open '${options.flags.get('f')}': No such file or directory\n`);
      return 1;
    }
    scripts = [...scripts, text];
  }
  if (scripts.length === 0) {
    const script = operands.shift();
    if (script === undefined) {
      await ctx.err('Usage: sed [-i[SFX]] [-nrE] [-f FILE]... [-e CMD]... [FILE]...\n');
      return 1;
    }
    scripts = [script];
  }
  let commands: SedCommand[];
  try {
    commands = parseSedScript(scripts.join('\n'), options.flags.has('E') || options.flags.has('r'));
  } catch (error) {
    if (error instanceof SedError) {
      await ctx.err(`sed: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const quiet = options.flags.has('n');

  const run = async (lines: AsyncIterable<{ line: string; last: boolean }>, write: (text: string) => Promise<void>): Promise<boolean> => {
    let lineNumber = 0;
    for await (const { line: input, last } of lines) {
      lineNumber++;
      let space = input;
      let deleted = false;
      const appended: string[] = [];
      let quit = false;
      const matches = (address: SedAddress): boolean =>
        'line' in address ? address.line === lineNumber : 'last' in address ? last : (address.regex.lastIndex = 0, address.regex.test(space));
      for (const command of commands) {
        let selected: boolean;
        if (!command.address1) selected = true;
        else if (!command.address2) selected = matches(command.address1);
        else if (command.active) {
          selected = true;
          if (matches(command.address2) || ('line' in command.address2 && command.address2.line <= lineNumber)) command.active = false;
        } else if (matches(command.address1)) {
          selected = true;
          command.active = !('line' in command.address2 && command.address2.line <= lineNumber) && !(('last' in command.address2) && last);
          if (!('line' in command.address2) && !('last' in command.address2)) command.active = true;
        } else selected = false;
        if (selected === command.negate) continue;
        switch (command.name) {
          case 's': {
            const regex = command.regex!;
            regex.lastIndex = 0;
            let count = 0;
            let replaced = false;
            let result = '';
            let position = 0;
            for (let m = regex.exec(space); m; m = regex.exec(space)) {
              count++;
              if (m[0] === '') regex.lastIndex++;
              if (count < command.occurrence! && !command.global) continue;
              if (count < command.occurrence!) continue;
              result += space.slice(position, m.index) + expandReplacement(command.replacement!, m);
              position = m.index + m[0].length;
              replaced = true;
              if (!command.global) break;
            }
            if (replaced) {
              space = result + space.slice(position);
              if (command.print) await write(space + '\n');
            }
            break;
          }
          case 'y': {
            const [from, to] = command.text!.split('\0') as [string, string];
            space = [...space].map((c) => (from.includes(c) ? to[from.indexOf(c)] ?? c : c)).join('');
            break;
          }
          case 'p':
            await write(space + '\n');
            break;
          case 'd':
            deleted = true;
            break;
          case 'q':
            quit = true;
            break;
          case '=':
            await write(`${lineNumber}\n`);
            break;
          case 'a':
            appended.push(command.text! + '\n');
            break;
          case 'i':
            await write(command.text! + '\n');
            break;
          case 'c':
            deleted = true;
            await write(command.text! + '\n');
            break;
        }
        if (deleted || quit) break;
      }
      if (!deleted && !quiet) await write(space + '\n');
      for (const text of appended) await write(text);
      if (quit) return false;
    }
    return true;
  };

  if (inPlace) {
    let status = 0;
    for (const file of operands) {
      const path = ctx.resolve(file);
      const text = ctx.io.fs.read(path);
      if (text === undefined) {
        await ctx.err(`sed: can't open '${file}': No such file or directory\n`);
        status = 1;
        continue;
      }
      let out = '';
      await run(linesOf(text), async (chunk) => {
        out += chunk;
      });
      const failure = ctx.io.fs.write(path, out, false);
      if (failure) {
        await ctx.err(`sed: can't create '${file}': ${failure}\n`);
        status = 1;
      }
    }
    return status;
  }
  let status = 0;
  for (const file of operands.length === 0 ? ['-'] : operands) {
    let lines: AsyncIterable<{ line: string; last: boolean }>;
    if (file === '-') lines = stdinLines(ctx);
    else {
      const text = ctx.io.fs.read(ctx.resolve(file));
      if (text === undefined) {
        await ctx.err(`sed: can't open '${file}': No such file or directory\n`);
        status = 2;
        continue;
      }
      lines = linesOf(text);
    }
    if (!(await run(lines, (text) => ctx.out(text)))) break;
  }
  return status;
}

async function* linesOf(text: string): AsyncIterable<{ line: string; last: boolean }> {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) yield { line: lines[i]!, last: i === lines.length - 1 };
}

async function* stdinLines(ctx: CommandContext): AsyncIterable<{ line: string; last: boolean }> {
  let current = await ctx.streams.stdin.readLine();
  while (current !== null) {
    const next = await ctx.streams.stdin.readLine();
    yield { line: current, last: next === null };
    current = next;
  }
}

export async function sort(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, { flags: 'nrufbhVsc', values: 'kto', long: { numeric: 'n', reverse: 'r', unique: 'u', key: 'k', 'field-separator': 't', output: 'o' } });
  if (parsed.error) {
    await ctx.err(`sort: ${parsed.error}\n`);
    return 1;
  }
  const f = parsed.flags;
  const inputs = await readInputs(ctx, parsed.operands, 'sort');
  const lines: string[] = [];
  for (const input of inputs) {
    if (input.error) {
      await ctx.err(input.error + '\n');
      return 2;
    }
    const split = input.text!.split('\n');
    if (split[split.length - 1] === '') split.pop();
    lines.push(...split);
  }
  const separator = f.get('t');
  const key = f.get('k');
  const keyOf = (line: string): string => {
    if (!key) return line;
    const match = /^([0-9]+)(?:\.[0-9]+)?[a-z]*(?:,([0-9]+))?/.exec(key);
    if (!match) return line;
    const start = Number(match[1]) - 1;
    const end = match[2] ? Number(match[2]) : undefined;
    const fields = separator !== undefined ? line.split(separator) : line.trim().split(/\s+/);
    return fields.slice(start, end).join(separator ?? ' ');
  };
  const numeric = f.has('n') || f.has('h') || /n/.test((key ?? '').replace(/^[0-9.,]+/, ''));
  const compare = (a: string, b: string): number => {
    let ka = keyOf(a);
    let kb = keyOf(b);
    if (f.has('f')) {
      ka = ka.toUpperCase();
      kb = kb.toUpperCase();
    }
    let order = 0;
    if (numeric) {
      const na = parseFloat(ka) || 0;
      const nb = parseFloat(kb) || 0;
      order = na - nb;
    } else order = ka < kb ? -1 : ka > kb ? 1 : 0;
    if (order === 0 && !f.has('u') && !f.has('s')) order = a < b ? -1 : a > b ? 1 : 0;
    return order;
  };
  let sorted = [...lines].sort(compare);
  if (f.has('r')) sorted.reverse();
  if (f.has('u')) sorted = sorted.filter((line, index) => index === 0 || compare(sorted[index - 1]!, line) !== 0);
  const text = sorted.map((line) => line + '\n').join('');
  const output = f.get('o');
  if (output !== undefined) {
    const failure = ctx.io.fs.write(ctx.resolve(output), text, false);
    if (failure) {
      await ctx.err(`sort: can't create '${output}': ${failure}\n`);
      return 2;
    }
    return 0;
  }
  await ctx.out(text);
  return 0;
}

export async function uniq(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, { flags: 'cdui', values: 'fs', long: { count: 'c', repeated: 'd', unique: 'u', 'ignore-case': 'i' } });
  if (parsed.error) {
    await ctx.err(`uniq: ${parsed.error}\n`);
    return 1;
  }
  const f = parsed.flags;
  const same = (a: string, b: string): boolean => (f.has('i') ? a.toLowerCase() === b.toLowerCase() : a === b);
  let previous: string | undefined;
  let count = 0;
  const flush = async (): Promise<void> => {
    if (previous === undefined) return;
    if (f.has('d') && count < 2) return;
    if (f.has('u') && count > 1) return;
    await ctx.out(f.has('c') ? `${String(count).padStart(7)} ${previous}\n` : `${previous}\n`);
  };
  const status = await forEachLine(ctx, parsed.operands.slice(0, 1), 'uniq', async (line) => {
    if (previous !== undefined && same(previous, line)) {
      count++;
      return;
    }
    await flush();
    previous = line;
    count = 1;
  });
  await flush();
  return status === 2 ? 1 : 0;
}
