/**
 * certificates/v1 usage strings → X.509 key usage bits and extended key usage OIDs (Kubernetes'
 * keyUsageDict / extKeyUsageDict); extended usages are ordered as Go orders them.
 */

/** Bit positions of KeyUsage (RFC 5280: digitalSignature is bit 0). */
const KEY_USAGE_BITS: Record<string, number> = {
  signing: 0,
  'digital signature': 0,
  'content commitment': 1,
  'key encipherment': 2,
  'data encipherment': 3,
  'key agreement': 4,
  'cert sign': 5,
  'crl sign': 6,
  'encipher only': 7,
  'decipher only': 8,
};

/** In Go's ExtKeyUsage order. */
const EXT_KEY_USAGES: [string[], string][] = [
  [['any'], '2.5.29.37.0'],
  [['server auth'], '1.3.6.1.5.5.7.3.1'],
  [['client auth'], '1.3.6.1.5.5.7.3.2'],
  [['code signing'], '1.3.6.1.5.5.7.3.3'],
  [['email protection', 's/mime'], '1.3.6.1.5.5.7.3.4'],
  [['ipsec end system'], '1.3.6.1.5.5.7.3.5'],
  [['ipsec tunnel'], '1.3.6.1.5.5.7.3.6'],
  [['ipsec user'], '1.3.6.1.5.5.7.3.7'],
  [['timestamping'], '1.3.6.1.5.5.7.3.8'],
  [['ocsp signing'], '1.3.6.1.5.5.7.3.9'],
  [['microsoft sgc'], '1.3.6.1.4.1.311.10.3.3'],
  [['netscape sgc'], '2.16.840.1.113730.4.1'],
];

export interface KeyUsages {
  /** Set bit positions. */
  keyUsageBits: number[];
  extKeyUsageOids: string[];
}

/** Throws on a usage that is neither (as Kubernetes' keyUsagesFromStrings). */
export function keyUsagesFromStrings(usages: readonly string[]): KeyUsages {
  const unrecognized = usages.filter((u) => KEY_USAGE_BITS[u] === undefined && !EXT_KEY_USAGES.some(([names]) => names.includes(u)));
  if (unrecognized.length > 0) throw new Error(`unrecognized usage values: ${JSON.stringify(unrecognized)}`);
  const bits = [...new Set(usages.flatMap((u) => (KEY_USAGE_BITS[u] === undefined ? [] : [KEY_USAGE_BITS[u]])))].sort((a, b) => a - b);
  const ext = EXT_KEY_USAGES.filter(([names]) => names.some((n) => usages.includes(n))).map(([, oid]) => oid);
  return { keyUsageBits: bits, extKeyUsageOids: ext };
}
