/** Saves text as a file through the browser's download (CSV exports). */
export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  downloadBlob(new Blob([text], { type }), fileName);
}

/** Saves a file the server sent (a blob, its bytes kept as they are) through the browser's download. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: Chromium starts the download after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
