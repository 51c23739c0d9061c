/** Hands a file made in the browser to the user as a download (PDF, markdown, CSV). */
export function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  // Some browsers read the URL after the click returns; it is let go a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
