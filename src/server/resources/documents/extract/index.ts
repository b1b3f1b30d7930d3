// Turns downloaded bytes into text: the format is sniffed from the bytes first (a server's
// Content-Type is often wrong), then the matching extractor runs.
import JSZip from 'jszip';
import { DocumentError } from '../errors.js';
import { decodeText } from './decode-text.js';
import { extractDocx } from './docx.js';
import { extractHtml } from './html.js';
import { extractMarkdown } from './markdown.js';
import { extractPdf } from './pdf.js';

export type SourceKind = 'pdf' | 'docx' | 'html' | 'markdown' | 'text';

export interface Extracted {
  kind: SourceKind;
  title: string;
  text: string;
}

const startsWith = (bytes: Uint8Array, ascii: string) => ascii.split('').every((ch, i) => bytes[i] === ch.charCodeAt(0));

/** The format of a file, or undefined when it is none we can read. */
export async function sniff(bytes: Uint8Array, contentType: string, url: string): Promise<SourceKind | undefined> {
  const head = bytes.subarray(0, 1024);
  if (startsWith(head, '%PDF-')) return 'pdf';
  if (startsWith(head, 'PK\x03\x04')) {
    try {
      const zip = await JSZip.loadAsync(bytes);
      return zip.file('word/document.xml') ? 'docx' : undefined;
    } catch {
      return undefined;
    }
  }
  const text = decodeText(bytes.subarray(0, 4096));
  if (text === undefined) return undefined; // binary
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const path = safePath(url);
  if (type === 'text/html' || type === 'application/xhtml+xml' || /^\s*(<!doctype html|<html|<head|<body)/i.test(text)) return 'html';
  if (type === 'text/markdown' || type === 'text/x-markdown' || /\.(md|markdown|mdown)$/i.test(path)) return 'markdown';
  if (type === '' || type.startsWith('text/') || type === 'application/octet-stream' || type === 'application/json') return 'text';
  return undefined;
}

export async function extract(bytes: Uint8Array, contentType: string, url: string): Promise<Extracted> {
  if (bytes.length === 0) throw new DocumentError('file_empty', 'the file has no content');
  const kind = await sniff(bytes, contentType, url);
  if (!kind)
    throw new DocumentError(
      'file_format_unsupported',
      `unsupported format (${contentType || 'unknown type'}); PDF, DOCX, HTML, Markdown and plain text are supported`,
    );
  let title = '';
  let text: string;
  try {
    if (kind === 'pdf') text = await extractPdf(bytes);
    else if (kind === 'docx') text = await extractDocx(bytes);
    else {
      const source = decodeText(bytes) ?? '';
      if (kind === 'html') ({ title, text } = extractHtml(source));
      else text = kind === 'markdown' ? extractMarkdown(source) : source.replace(/\r\n?/g, '\n').trim();
    }
  } catch (error) {
    throw new DocumentError(
      'document_processing_failed',
      `could not read the ${kind} file: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!text.trim()) throw new DocumentError('file_empty', `the ${kind} file contains no text`);
  return { kind, title, text };
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}
