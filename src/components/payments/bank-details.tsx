import { formatRand2 } from "@/lib/money";
import type { ShopBank } from "@/server/settings/bank-transfer";

/** The shop's account, an order's reference and its amount: what a customer pays an unpaid order with by bank transfer. */
export function OrderBankDetails({ bank, reference, total }: { bank: ShopBank; reference: string; total: number }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm" data-testid="bank-details">
      <dt className="text-muted">Account name</dt>
      <dd className="font-medium">{bank.accountName}</dd>
      <dt className="text-muted">Bank</dt>
      <dd className="font-medium">{bank.bankName}</dd>
      <dt className="text-muted">Account number</dt>
      <dd className="tabular font-medium select-all">{bank.accountNumber}</dd>
      <dt className="text-muted">Branch code</dt>
      <dd className="tabular font-medium">{bank.branchCode}</dd>
      <dt className="text-muted">Account type</dt>
      <dd className="font-medium">{bank.accountType}</dd>
      <dt className="text-muted">Reference</dt>
      <dd className="tabular font-bold text-brand-800 select-all" data-testid="order-reference">
        {reference}
      </dd>
      <dt className="text-muted">Amount</dt>
      <dd className="tabular font-medium">{formatRand2(total)}</dd>
    </dl>
  );
}
