import { describe, expect, it } from 'vitest';
import { cancellationOf, cancellationText } from './cancellation';

const AT = new Date('2026-11-26T10:00:00Z');
const money = (value: number) => `$${value.toFixed(2)}`;

describe('cancellation: the reason and the fee a canceled project shows', () => {
  it('a fee-bearing reason while takes were in review: 30 % of the price', () => {
    const c = cancellationOf(
      { reason: 'Ordered twice', reasonCode: 'no_longer_needed.duplicated', price: 31 },
      { reason: 'Ordered twice', reasonCode: 'no_longer_needed.duplicated' },
      true,
      AT,
    );
    expect(c).toEqual({
      reason: 'Ordered twice',
      reasonCode: 'no_longer_needed.duplicated',
      feePercent: 30,
      fee: 9.3,
      at: AT.toISOString(),
    });
    expect(cancellationText(c, money)).toBe(
      'Canceled: The project was duplicated — “Ordered twice”. Fee charged: $9.30 (30 %).',
    );
  });

  it('nothing in review, or a reason without a fee: no fee', () => {
    const c = cancellationOf({ price: 31 }, { reason: '', reasonCode: 'no_longer_needed' }, false, AT);
    expect(c.feePercent).toBe(0);
    expect(cancellationText(c, money)).toBe('Canceled: I no longer need this project. No cancellation fee.');
  });

  it('says what is not known rather than guess', () => {
    const c = cancellationOf({}, { reason: '', reasonCode: 'no_longer_needed' }, null, AT);
    expect(cancellationText(c, money)).toMatch(/not read them\.$/);
    expect(cancellationText(undefined, money)).toBe(
      'Canceled. The reason and any fee are not known here: the service tells them only in the answer to the cancel.',
    );
  });
});
