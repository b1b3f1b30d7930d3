// Plain text of a Markdown file: markup removed, paragraph structure kept (headings become paragraphs).
export function extractMarkdown(source: string): string {
  return source
    .replace(/^---\n[\s\S]*?\n---\n/, '') // front matter
    .replace(/^```[^\n]*\n([\s\S]*?)^```\s*$/gm, '$1') // fenced code: keep the code
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // images → alt text
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1') // links → their text
    .replace(/^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/gm, '\n$1\n') // headings on their own paragraph
    .replace(/^\s{0,3}>\s?/gm, '') // block quotes
    .replace(/^\s*([-*_])(\s*\1){2,}\s*$/gm, '') // rules
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|\W)[*_](\S(?:.*?\S)?)[*_](?=\W|$)/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/<[^>\n]+>/g, '') // inline HTML tags
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
