import { describe, expect, it } from 'vitest';
import { csvObjects, parseCsv } from './csv.js';

describe('RFC 4180 CSV', () => {
  it('reads plain fields and records', () => {
    expect(parseCsv('a,b,c\n1,2,3\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
  });
  it('reads quoted fields with commas, line breaks and doubled quotes', () => {
    const text = 'ID,text\r\n1,"Doctor: Hi, how are you?\nPatient: I said ""fine"", thanks."\r\n2,plain\r\n';
    expect(parseCsv(text)).toEqual([
      ['ID', 'text'],
      ['1', 'Doctor: Hi, how are you?\nPatient: I said "fine", thanks.'],
      ['2', 'plain'],
    ]);
  });
  it('keeps empty fields, a last record without a line break, and strips a byte-order mark', () => {
    expect(parseCsv('\ufeffa,,c\n,"",\nx,y,z')).toEqual([
      ['a', '', 'c'],
      ['', '', ''],
      ['x', 'y', 'z'],
    ]);
  });
  it('refuses a file that ends inside quotes', () => {
    expect(() => parseCsv('a,"open\n')).toThrow(/inside a quoted field/);
  });
  it('gives objects keyed by the header', () => {
    expect(csvObjects('ID,section_header\n0,GENHX\n1,"ROS"\n')).toEqual([
      { ID: '0', section_header: 'GENHX' },
      { ID: '1', section_header: 'ROS' },
    ]);
  });
});
