// Text of a Word (DOCX) file through mammoth; paragraphs come back separated by blank lines.
export async function extractDocx(bytes: Uint8Array): Promise<string> {
  const mammoth = await import('mammoth');
  const extractRawText = (mammoth.default ?? mammoth).extractRawText;
  const result = await extractRawText({ buffer: Buffer.from(bytes) });
  return result.value.replace(/\n{3,}/g, '\n\n').trim();
}
