import type { HostedPayment } from "@/server/ports/payments";

/**
 * Sends the browser to the provider's hosted payment page: posts its signed form, the fields in
 * the order given (PayFast signs them in its documented order). A top-level navigation, so the
 * Content-Security-Policy's form-action allows the provider (src/server/security/http-headers.ts).
 */
export function goToHostedPayment(payment: HostedPayment): void {
  const form = document.createElement("form");
  form.method = "POST";
  form.action = payment.action;
  form.hidden = true;
  for (const [name, value] of payment.fields) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}
