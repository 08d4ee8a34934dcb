/**
 * What a cancel cost and why, kept by main from the cancel's answer: the service returns the reason only in that
 * answer (a later read of the project does not carry it), and the fee depends on whether takes were in review
 * when the producer canceled (docs/service.md#cancel-reasons), which only the app saw.
 */
import { CANCEL_REASONS, cancelFeePercent } from '../api/reasons';

export interface Cancellation {
  /** The producer's own words, as sent. */
  reason: string;
  /** The code the service recorded (`main` or `main.sub`). */
  reasonCode: string;
  /** The fee in percent of the project's price; null when it was not known whether takes were in review. */
  feePercent: number | null;
  /** The fee itself, in the project's currency; null when the price or the percent is not known. */
  fee: number | null;
  /** When Takedesk took the answer (ISO). */
  at: string;
}

/** The record of one cancel; `inReview` null when the app had not read the project's takes. */
export function cancellationOf(
  answer: { reason?: string | null; reasonCode?: string | null; price?: number | null },
  sent: { reason: string; reasonCode: string },
  inReview: boolean | null,
  at: Date,
): Cancellation {
  const reasonCode = answer.reasonCode || sent.reasonCode;
  const feePercent = inReview === null ? null : cancelFeePercent(reasonCode, inReview);
  const price = typeof answer.price === 'number' && Number.isFinite(answer.price) ? answer.price : null;
  const fee = feePercent === null || price === null ? null : Math.round(price * feePercent) / 100;
  return { reason: answer.reason ?? sent.reason, reasonCode, feePercent, fee, at: at.toISOString() };
}

/** The reason in the producer's words: the sub reason's label when there is one, else the main one's. */
export function cancelReasonLabel(code: string): string {
  const main = CANCEL_REASONS.find((r) => r.code === code.split('.')[0]);
  const sub = main?.subReasons.find((s) => s.code === code);
  return sub?.label ?? main?.label ?? code;
}

/**
 * "Canceled: The project was duplicated — “Ordered twice”. Fee charged: $9.30 (30 %)." A cancel Takedesk did not
 * see answered (made elsewhere, or sent from the outbox) says what is not known rather than guess.
 */
export function cancellationText(c: Cancellation | undefined, money: (value: number) => string): string {
  if (!c)
    return 'Canceled. The reason and any fee are not known here: the service tells them only in the answer to the cancel.';
  const words = c.reason.trim() ? ` — “${c.reason.trim()}”` : '';
  let fee: string;
  if (c.feePercent === 0) fee = 'No cancellation fee.';
  else if (c.feePercent === null)
    fee = 'Any fee depends on whether takes were in review; Takedesk had not read them.';
  else if (c.fee === null) fee = `Fee charged: ${c.feePercent} % of the project’s price.`;
  else fee = `Fee charged: ${money(c.fee)} (${c.feePercent} %).`;
  return `Canceled: ${cancelReasonLabel(c.reasonCode)}${words}. ${fee}`;
}
