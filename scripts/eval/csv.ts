/**
 * A small RFC 4180 reader: fields in double quotes may hold commas, line breaks and doubled quotes (""); records
 * end at CRLF or LF. MTS-Dialog's dialogues are such multi-line quoted fields.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === ',') endField();
    else if (c === '\n') endRecord();
    else if (c === '\r' && text[i + 1] === '\n') {
      endRecord();
      i++;
    } else field += c;
    i++;
  }
  if (quoted) throw new Error('CSV ends inside a quoted field');
  // A last record without a final line break; a final line break alone adds no empty record.
  if (field !== '' || record.length > 0) endRecord();
  return records;
}

/** Records as objects keyed by the header row's names. */
export function csvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  return rows.filter((row) => row.length > 1 || row[0] !== '').map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ''])));
}
