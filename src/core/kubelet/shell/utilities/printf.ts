// `printf FORMAT [ARG…]` as busybox's: C conversions (%s %b %c %d %i %u %o
// %x %X %f %e %g %%) with flags, width and precision (also `*`), escapes in
// the format, the format reused while arguments remain; a bad number is
// reported and makes the status 1.

import type { CommandContext } from '../command';
import { decodeCEscapesWithStop } from '../parser';

export async function printf(ctx: CommandContext): Promise<number> {
  const args = ctx.args[0] === '--' ? ctx.args.slice(1) : ctx.args;
  if (args.length === 0) {
    await ctx.err('Usage: printf FORMAT [ARG]...\n');
    return 1;
  }
  const format = args[0]!;
  const values = args.slice(1);
  let status = 0;
  let out = '';
  let index = 0;
  const next = (): string | undefined => values[index++];
  const numberArg = (text: string | undefined): number => {
    if (text === undefined || text === '') return 0;
    if (/^['"]/.test(text)) return text.codePointAt(1) ?? 0;
    const trimmed = text.trim();
    let value: number;
    if (/^[+-]?0[xX][0-9a-fA-F]+$/.test(trimmed)) value = parseInt(trimmed, 16);
    else if (/^[+-]?0[0-7]+$/.test(trimmed)) value = parseInt(trimmed, 8);
    else if (/^[+-]?[0-9]+$/.test(trimmed)) value = parseInt(trimmed, 10);
    else if (/^[+-]?([0-9]*\.[0-9]+|[0-9]+\.?)([eE][+-]?[0-9]+)?$/.test(trimmed)) value = Number(trimmed);
    else {
      status = 1;
      void ctx.err(`printf: invalid number '${text}'\n`);
      const leading = /^[+-]?[0-9]+/.exec(trimmed);
      return leading ? Number(leading[0]) : 0;
    }
    return value;
  };
  for (;;) {
    const startIndex = index;
    let stop = false;
    for (let i = 0; i < format.length && !stop; i++) {
      const c = format[i]!;
      if (c === '\\') {
        const end = escapeEnd(format, i);
        const decoded = decodeCEscapesWithStop(format.slice(i, end), { octalNeedsZero: false });
        out += decoded.text;
        if (decoded.stop) stop = true;
        i = end - 1;
        continue;
      }
      if (c !== '%') {
        out += c;
        continue;
      }
      const spec = /^%([-+ #0]*)(\*|[0-9]+)?(?:\.(\*|[0-9]*))?([hlLqjzt]*)([a-zA-Z%])/.exec(format.slice(i));
      if (!spec) {
        out += c;
        continue;
      }
      i += spec[0].length - 1;
      const flags = spec[1]!;
      let width = spec[2] === '*' ? numberArg(next()) : spec[2] ? Number(spec[2]) : undefined;
      const precision = spec[3] === '*' ? numberArg(next()) : spec[3] !== undefined ? Number(spec[3] || '0') : undefined;
      const conversion = spec[5]!;
      let left = flags.includes('-');
      if (width !== undefined && width < 0) {
        left = true;
        width = -width;
      }
      let text: string;
      switch (conversion) {
        case '%':
          out += '%';
          continue;
        case 's': {
          const value = next() ?? '';
          text = precision !== undefined ? value.slice(0, precision) : value;
          break;
        }
        case 'b': {
          const decoded = decodeCEscapesWithStop(next() ?? '', { octalNeedsZero: true });
          text = decoded.text;
          if (decoded.stop) stop = true;
          break;
        }
        case 'c':
          text = (next() ?? '').slice(0, 1);
          break;
        case 'd':
        case 'i':
        case 'u': {
          let value = Math.trunc(numberArg(next()));
          if (conversion === 'u' && value < 0) value = Number(BigInt.asUintN(64, BigInt(value)));
          text = signed(String(Math.abs(value)), value < 0, flags, precision);
          break;
        }
        case 'o':
        case 'x':
        case 'X': {
          const value = Math.trunc(numberArg(next()));
          const unsigned = value < 0 ? BigInt.asUintN(64, BigInt(value)) : BigInt(value);
          let digits = unsigned.toString(conversion === 'o' ? 8 : 16);
          if (conversion === 'X') digits = digits.toUpperCase();
          if (precision !== undefined) digits = digits.padStart(precision, '0');
          if (flags.includes('#') && unsigned !== 0n) digits = (conversion === 'o' ? '0' : conversion === 'x' ? '0x' : '0X') + digits;
          text = digits;
          break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G': {
          const value = numberArg(next());
          text = signed(formatFloat(Math.abs(value), conversion, precision ?? 6, flags.includes('#')), value < 0 || Object.is(value, -0), flags, undefined);
          break;
        }
        default:
          await ctx.err(`printf: %${conversion}: invalid format\n`);
          await ctx.out(out);
          return 1;
      }
      if (width !== undefined && text.length < width) {
        if (left) text = text.padEnd(width, ' ');
        else if (flags.includes('0') && /[diouxXfFeEgG]/.test(conversion) && precision === undefined || (flags.includes('0') && /[fFeEgG]/.test(conversion))) {
          const sign = /^[+\- ]|^0[xX]/.exec(text)?.[0] ?? '';
          text = sign + text.slice(sign.length).padStart(width - sign.length, '0');
        } else text = text.padStart(width, ' ');
      }
      out += text;
    }
    if (stop || index >= values.length || index === startIndex) break;
  }
  await ctx.out(out);
  return status;
}

function escapeEnd(format: string, start: number): number {
  const n = format[start + 1];
  if (n === undefined) return start + 1;
  if (n === 'x') return start + 2 + (/^[0-9a-fA-F]{0,2}/.exec(format.slice(start + 2))![0].length);
  if (/[0-7]/.test(n)) return start + 1 + (/^[0-7]{1,3}/.exec(format.slice(start + 1))![0].length);
  return start + 2;
}

function signed(digits: string, negative: boolean, flags: string, precision: number | undefined): string {
  const body = precision !== undefined ? digits.padStart(precision, '0') : digits;
  if (negative) return '-' + body;
  if (flags.includes('+')) return '+' + body;
  if (flags.includes(' ')) return ' ' + body;
  return body;
}

function formatFloat(value: number, conversion: string, precision: number, alternate: boolean): string {
  if (!Number.isFinite(value)) return /[A-Z]/.test(conversion) ? (Number.isNaN(value) ? 'NAN' : 'INF') : Number.isNaN(value) ? 'nan' : 'inf';
  let text: string;
  switch (conversion.toLowerCase()) {
    case 'f':
      text = value.toFixed(precision);
      break;
    case 'e':
      text = value.toExponential(precision).replace(/e([+-])(\d)$/, 'e$10$2');
      break;
    default: {
      const p = precision === 0 ? 1 : precision;
      const exponent = value === 0 ? 0 : Math.floor(Math.log10(value));
      if (exponent < -4 || exponent >= p) {
        text = value.toExponential(p - 1).replace(/e([+-])(\d)$/, 'e$10$2');
        if (!alternate) text = text.replace(/\.?0+e/, 'e');
      } else {
        text = value.toFixed(Math.max(0, p - 1 - exponent));
        if (!alternate && text.includes('.')) text = text.replace(/\.?0+$/, '');
      }
    }
  }
  return /[A-Z]/.test(conversion) ? text.toUpperCase() : text;
}
