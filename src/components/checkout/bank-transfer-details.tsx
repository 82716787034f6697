import { messages } from "@/lib/messages";
import { CopyButton } from "@/components/ui/copy-button";
import type { CheckoutStart } from "./use-checkout";

const m = messages.checkout;

/** The shop's bank account and the reference to pay with, the account number and reference each with a copy button. */
export function BankTransferDetails({ bank, reference }: { bank: NonNullable<CheckoutStart["bank"]>; reference: string | null }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm" data-testid="bank-details">
      <dt className="text-muted">Account name</dt>
      <dd className="font-medium">{bank.accountName}</dd>
      <dt className="text-muted">Bank</dt>
      <dd className="font-medium">{bank.bankName}</dd>
      <dt className="self-center text-muted">Account number</dt>
      <dd className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span id="bank-account-number" className="tabular font-medium select-all" data-testid="bank-account-number">
          {bank.accountNumber}
        </span>
        <CopyButton value={bank.accountNumber} what="account number" targetId="bank-account-number" />
      </dd>
      <dt className="text-muted">Branch code</dt>
      <dd className="tabular font-medium">{bank.branchCode}</dd>
      <dt className="text-muted">Account type</dt>
      <dd className="font-medium">{bank.accountType}</dd>
      <dt className="self-center text-muted">Reference</dt>
      {reference ? (
        <dd className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span id="payment-reference" className="tabular font-bold text-brand-800 select-all" data-testid="payment-reference">
            {reference}
          </span>
          <CopyButton value={reference} what="reference" targetId="payment-reference" />
        </dd>
      ) : (
        <dd className="text-muted">{m.referencePending}</dd>
      )}
    </dl>
  );
}
