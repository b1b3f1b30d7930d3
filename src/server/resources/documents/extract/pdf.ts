// Text of a PDF through pdf.js (legacy build: runs in Node without a worker or DOM). Lines end where
// pdf.js says they do; a gap in the page flow becomes a paragraph break.
export async function extractPdf(bytes: Uint8Array): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdf.js takes ownership of (and detaches) the buffer it is given: hand it a copy.
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    useWorkerFetch: false,
    isEvalSupported: false,
    disableFontFace: true,
    verbosity: 0,
  });
  const pdf = await task.promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      let lastY: number | undefined;
      for (const item of content.items) {
        if (!('str' in item)) continue;
        const y = item.transform[5] as number;
        // A vertical jump larger than ~1.8 lines separates paragraphs.
        if (lastY !== undefined && text && !text.endsWith('\n') && Math.abs(lastY - y) > Math.max(item.height, 8) * 1.8) text += '\n';
        text += item.str;
        if (item.hasEOL) text += '\n';
        lastY = y;
      }
      pages.push(text.replace(/[ \t]+\n/g, '\n').trim());
      page.cleanup();
    }
    return pages.filter(Boolean).join('\n\n');
  } finally {
    await pdf.destroy();
  }
}
