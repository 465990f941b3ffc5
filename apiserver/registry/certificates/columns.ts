/** The CertificateSigningRequest table, as kubectl prints it: AGE, SIGNERNAME, REQUESTOR, REQUESTEDDURATION, CONDITION. */
import type { PrinterColumn } from '../../api/resource.js';
import { typedColumns } from '../../api/strategy.js';
import { AGE_COLUMN, orNone } from '../../api/printers/columns.js';
import { humanDuration } from '../../api/printers/human-duration.js';
import type { CertificateSigningRequest } from '../../api/generated/types.js';

/** Denied, else Approved, else Pending; then ",Failed" and ",Issued" when they apply. */
function conditionSummary(csr: CertificateSigningRequest): string {
  const types = new Set((csr.status?.conditions ?? []).map((c) => c.type));
  let summary = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) summary += ',Failed';
  if (csr.status?.certificate) summary += ',Issued';
  return summary;
}

export const csrColumns: PrinterColumn[] = [
  AGE_COLUMN,
  ...typedColumns<CertificateSigningRequest>([
    { name: 'SignerName', cell: (o) => orNone(o.spec?.signerName) },
    { name: 'Requestor', cell: (o) => o.spec?.username ?? '' },
    {
      name: 'RequestedDuration',
      cell: (o) => {
        const seconds = o.spec?.expirationSeconds;
        return seconds === undefined ? '<none>' : humanDuration(seconds * 1000);
      },
    },
    { name: 'Condition', cell: (o) => conditionSummary(o) },
  ]),
];
