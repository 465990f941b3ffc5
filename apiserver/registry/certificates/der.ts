/** A minimal DER reader: enough of ASN.1 to take a PKCS#10 request apart without re-encoding it. */

/** One DER element: its tag and where its header and content lie in the buffer. */
export interface DerElement {
  tag: number;
  /** Offset of the element's first (tag) byte. */
  start: number;
  /** Offset of the content. */
  contentStart: number;
  /** Offset just past the content. */
  end: number;
}

/** Thrown for data that is not the DER structure expected (the message is Go's asn1 error text). */
export class DerError extends Error {}

/** The element at `offset`, which must lie within `limit`. */
export function readElement(buf: Buffer, offset: number, limit = buf.length): DerElement {
  if (offset + 2 > limit) throw new DerError('asn1: syntax error: data truncated');
  const tag = buf[offset];
  let length = buf[offset + 1];
  let contentStart = offset + 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    if (octets === 0 || octets > 4 || contentStart + octets > limit) throw new DerError('asn1: syntax error: data truncated');
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + buf[contentStart + i];
    contentStart += octets;
  }
  const end = contentStart + length;
  if (end > limit) throw new DerError('asn1: syntax error: data truncated');
  return { tag, start: offset, contentStart, end };
}

/** The children of a constructed element, each of the expected tag when tags are given. */
export function readChildren(buf: Buffer, parent: DerElement, tags: readonly number[]): DerElement[] {
  const children: DerElement[] = [];
  let offset = parent.contentStart;
  for (const tag of tags) {
    const child = readElement(buf, offset, parent.end);
    if (child.tag !== tag) throw new DerError("asn1: structure error: tags don't match");
    children.push(child);
    offset = child.end;
  }
  return children;
}

/** An OBJECT IDENTIFIER's dotted form. */
export function readOid(buf: Buffer, el: DerElement): string {
  const bytes = buf.subarray(el.contentStart, el.end);
  if (bytes.length === 0) throw new DerError('asn1: syntax error: zero length OBJECT IDENTIFIER');
  const parts: number[] = [];
  let value = 0;
  for (const b of bytes) {
    value = value * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  const first = parts.shift()!;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...parts].join('.');
}
