/** A file name from the title and date: letters, digits and dashes only. */
export function documentFileName(title: string, date: Date, extension: 'pdf' | 'md' | 'fhir.json'): string {
  const slug = title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${slug || 'document'}-${date.toISOString().slice(0, 10)}.${extension}`;
}
