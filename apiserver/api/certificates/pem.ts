/**
 * PEM blocks as Go's encoding/pem.Decode finds them: `-----BEGIN TYPE-----`, optional `Key: value`
 * headers, base64 body, `-----END TYPE-----`; text around and between blocks is skipped, and a block
 * whose body is not base64 is not a block.
 */
export interface PemBlock {
  type: string;
  headers: Record<string, string>;
  bytes: Buffer;
}

const BLOCK = /-----BEGIN ([^\r\n]*?)-----\r?\n([\s\S]*?)-----END \1-----/g;
const HEADER = /^([^:\r\n]+):\s*(.*)$/;

function parseBlock(type: string, text: string): PemBlock | undefined {
  const lines = text.split(/\r?\n/);
  const headers: Record<string, string> = {};
  let i = 0;
  for (; i < lines.length; i++) {
    const h = HEADER.exec(lines[i]);
    if (!h) break;
    headers[h[1].trim()] = h[2].trim();
  }
  if (Object.keys(headers).length > 0) {
    if (lines[i]?.trim() !== '') return undefined; // headers end with a blank line
    i++;
  }
  const body = lines.slice(i).join('').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 !== 0) return undefined;
  return { type, headers, bytes: Buffer.from(body, 'base64') };
}

/** Every well-formed PEM block in the data, in order. */
export function decodePemBlocks(data: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  for (const m of data.matchAll(BLOCK)) {
    const block = parseBlock(m[1], m[2]);
    if (block) blocks.push(block);
  }
  return blocks;
}
