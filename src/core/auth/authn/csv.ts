// A reader for the CSV dialect of Go's encoding/csv as kube-apiserver uses it
// for --token-auth-file (FieldsPerRecord = -1, TrimLeadingSpace = true):
// RFC 4180 quoting with "" escapes, quoted fields may span lines, empty lines
// are skipped, leading white space of a field is dropped. Errors carry Go's
// wording ("parse error on line 1, column 5: bare \" in non-quoted field").

export class CsvError extends Error {}

export function parseCsv(text: string): { records: string[][]; lines: number[] } {
  const records: string[][] = [];
  const lines: number[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    // Skip empty lines.
    if (text[i] === '\n') {
      line++;
      i++;
      continue;
    }
    if (text[i] === '\r' && text[i + 1] === '\n') {
      line++;
      i += 2;
      continue;
    }
    const startLine = line;
    const record: string[] = [];
    for (;;) {
      // One field.
      while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
      let field = '';
      const column = (): number => {
        const lineStart = text.lastIndexOf('\n', i - 1) + 1;
        return i - lineStart + 1;
      };
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= n) throw new CsvError(`record on line ${startLine}; parse error on line ${line + 1}, column 0: extraneous or missing " in quoted-field`);
          const c = text[i]!;
          if (c === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === '\n') line++;
          field += c;
          i++;
        }
        if (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          throw new CsvError(`parse error on line ${line}, column ${column()}: extraneous or missing " in quoted-field`);
        }
      } else {
        while (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          if (text[i] === '"') throw new CsvError(`parse error on line ${line}, column ${column()}: bare " in non-quoted field`);
          field += text[i];
          i++;
        }
        if (field.endsWith('\r')) field = field.slice(0, -1);
      }
      record.push(field);
      if (i < n && text[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    if (i < n && text[i] === '\r') i++;
    if (i < n && text[i] === '\n') {
      i++;
      line++;
    }
    records.push(record);
    lines.push(startLine);
  }
  return { records, lines };
}
