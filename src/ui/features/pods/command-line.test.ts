import { describe, expect, it } from 'vitest';
import { splitCommandLine } from './command-line';

describe('splitCommandLine (the argv kubectl exec sends after --)', () => {
  it('splits words on whitespace and keeps quoted text whole', () => {
    expect(splitCommandLine('ls  -l /etc')).toEqual(['ls', '-l', '/etc']);
    expect(splitCommandLine(`sh -c 'echo $HOSTNAME; exit 3'`)).toEqual(['sh', '-c', 'echo $HOSTNAME; exit 3']);
    expect(splitCommandLine('echo "a \\"b\\" c" d\\ e')).toEqual(['echo', 'a "b" c', 'd e']);
    expect(splitCommandLine(`printf ''`)).toEqual(['printf', '']);
  });

  it('refuses an unterminated quote', () => {
    expect(() => splitCommandLine(`echo 'oops`)).toThrow('unterminated single quote');
    expect(() => splitCommandLine('echo "oops')).toThrow('unterminated double quote');
  });
});
